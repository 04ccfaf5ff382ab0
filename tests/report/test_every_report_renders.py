"""Does every route render every report the kit can produce, without crashing?

Reports are generated: every status, tasks with no cases (a refused or crashed
submission), errors, notes, printed output, unicode and markup-like text from
students, huge messages, diagnoses, graphs with odd numbers (NaN, nothing observed). Each route — text, JSON, HTML, CSV gradebook, class
summary (markdown and page), the pytest route's explanation — must render all of them.
"""
import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from autograder import pytest_plugin
from autograder.report.csv_report import render_gradebook
from autograder.report.html_report import render_feedback
from autograder.report.json_report import render_json
from autograder.report.prairielearn_json import results_json as prairielearn_results
from autograder.report.model import STATUSES, CaseGraph, CaseResult, Diagnosis, GraphNode, Report, TaskResult
from autograder.report.summary import build_summary, render_markdown
from autograder.report.summary_html import Student, render_summary_html
from autograder.report.text import print_report
from autograder.tasks import TASK_IDS
from report_fakes import Row

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60) | st.sampled_from(
    ["", "[bold]x[/bold]", "<script>alert(1)</script>", "=cmd|' /C calc'!A0", "x" * 5000, "ünïcødé ✓ \n two lines"])

numbers = st.floats(allow_nan=True, allow_infinity=True) | st.none()
nodes = st.builds(GraphNode, name=st.sampled_from(["x0", "x1", "n0", "n1", "a", "out"]),
                  data=st.floats(allow_nan=False, allow_infinity=False), op=st.sampled_from(["", "+", "**-1.5", "2*x0 - x1"]),
                  children=st.lists(st.sampled_from(["x0", "x1", "n0"]), max_size=2).map(tuple),
                  grad=numbers, expected=numbers, data_got=numbers, wrong_grad=st.booleans(), wrong_data=st.booleans(),
                  note=st.sampled_from(["", "mix"]))
# mostly none: every picture drawn is a real run of graphviz's dot
graphs = st.none() | st.none() | st.none() | st.builds(CaseGraph, nodes=st.lists(nodes, min_size=1, max_size=5, unique_by=lambda n: n.name).map(tuple))

cases = st.builds(
    CaseResult,
    graph=graphs,
    id=st.text(min_size=1, max_size=20),
    status=st.sampled_from(STATUSES),
    visibility=st.sampled_from(["public", "hidden"]),
    message=text, title=text,
    details=st.lists(text, max_size=3).map(tuple),
    output=text,
)


@st.composite
def tasks(draw):
    cs = tuple(draw(st.lists(cases, max_size=5)))
    points = draw(st.sampled_from([0.0, 5.0, 15.0]))
    passed = sum(c.status == "passed" for c in cs)
    diagnosis = tuple(draw(st.lists(st.builds(Diagnosis, id=st.sampled_from(["overwrites_grad", "odd"]), message=text),
                                    max_size=2)))
    return TaskResult(draw(st.sampled_from(TASK_IDS)), draw(text), points * passed / len(cs) if cs else 0.0, points, cs,
                      diagnosis)


@st.composite
def reports(draw):
    ts = tuple(draw(st.lists(tasks(), max_size=4, unique_by=lambda t: t.id)))
    return Report(
        submission=draw(text) or "s", score=sum(t.score for t in ts), max_score=sum(t.max_score for t in ts),
        tasks=ts, error=draw(st.none() | text), sandbox=draw(st.sampled_from(["bubblewrap", "uid", "basic", "none"])),
        notes=tuple(draw(st.lists(text, max_size=2))), import_output=draw(text),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_does_every_route_render_every_report(report):
    out = io.StringIO()
    # the consoles the CLI makes (print_report's own default): no highlighting of student text
    print_report(report, Console(file=out, width=100, highlight=False), verbose=True)
    print_report(report, Console(file=io.StringIO(), width=40, highlight=False))
    assert "Score:" in out.getvalue()
    assert json.loads(render_json(report))["submission"] == report.submission
    assert "<html" in render_feedback(report).lower()
    assert render_gradebook([Row("student", report)]).count("\n") >= 2
    assert render_markdown(build_summary([report]))
    student = Student(report.submission, report.submission, "feedback/s.html", report.score, report.max_score,
                      None, report.error)
    assert "<html" in render_summary_html(build_summary([report]), [student])
    for task in report.tasks:
        assert task.id in pytest_plugin.explain_task(task)
    prairielearn = prairielearn_results(report)
    assert 0 <= prairielearn["score"] <= 1 and len(json.dumps(prairielearn, allow_nan=False)) < 1_000_000


def test_does_the_text_report_of_a_refused_submission_render():
    """A forbidden import refuses the submission: every task at 0, no cases. This once raised IndexError."""
    refused = Report("alice", 0.0, 10.0, (TaskResult("mul", "the mul task", 0.0, 5.0),
                                          TaskResult("add", "the add task", 0.0, 5.0)),
                     error="micrograd/engine.py:1: ImportError: torch is not allowed in this assignment")
    out = io.StringIO()
    print_report(refused, Console(file=out, width=120, highlight=False))
    assert "torch is not allowed" in out.getvalue() and "Score: 0 / 10" in out.getvalue()
