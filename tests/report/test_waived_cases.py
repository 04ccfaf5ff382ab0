"""With backward() broken, do the ops that are right read as passed in every report, their end-to-end
cases (which run through backward) shown as not counted, and backward as the task to fix?

One real grading (public and hidden cases) of the solutions with `for v in reversed(topo)` written
`for v in topo`, through each reporter.
"""
from __future__ import annotations

import re
import shutil

import pytest
from rich.console import Console

from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.paths import SOLUTIONS
from autograder.report.gradescope_json import results_json
from autograder.report.html_report import render_feedback
from autograder.report.json_report import report_dict
from autograder.report.summary import build_summary
from autograder.report.text import print_report

OPS = ("add", "mul", "pow", "tanh", "exp", "relu")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("unreversed")
    shutil.copytree(SOLUTIONS / "micrograd", root / "micrograd")
    engine = root / "micrograd" / "engine.py"
    engine.write_text(engine.read_text().replace("for v in reversed(topo):", "for v in topo:"))
    return grade_path(root, rubric=Rubric(hidden_seed=5), include_hidden=True)


def test_are_the_ops_passed_with_their_failing_end_to_end_cases_waived(report):
    by_id = {t.id: t for t in report.tasks}
    assert by_id["backward"].status == "failed" and by_id["backward"].score < by_id["backward"].max_score
    for op in OPS:
        task = by_id[op]
        assert task.score == task.max_score and task.status == "passed"
        assert task.waived > 0 and task.count("failed") == task.waived  # every failure is a waived one


def test_does_the_json_and_gradescope_say_passed_for_the_ops(report):
    tasks = {t["id"]: t for t in report_dict(report)["tasks"]}
    assert all(tasks[op]["status"] == "passed" for op in OPS) and tasks["backward"]["status"] == "failed"
    tests = {t["tags"][0]: t for t in results_json(report)["tests"] if "hidden" not in t["tags"]}
    assert all(tests[op]["status"] == "passed" for op in OPS) and tests["backward"]["status"] == "failed"


def test_does_gradescope_say_the_ops_hidden_cases_passed_when_the_ops_score_full_marks(report):
    hidden = {t["tags"][0]: t for t in results_json(report)["tests"] if "hidden" in t["tags"]}
    for op in OPS:
        assert hidden[op]["status"] == "passed", hidden[op]["output"]
        assert "fails its own cases: not counted here" in hidden[op]["output"]
    assert hidden["backward"]["status"] == "failed"


def test_does_the_terminal_point_at_backward_not_at_the_ops(report):
    console = Console(record=True, width=200, highlight=False)
    print_report(report, console)
    text = console.export_text()
    assert ("note: add, mul, pow, tanh, exp and relu pass, but " in text
            and " of their end-to-end cases fail through backward, which fails its own cases: they count once "
                "backward passes (--verbose shows them)" in text)
    headings = re.findall(r"^(\w+) — ", text, flags=re.M)
    assert headings == ["backward"]  # only the task to fix gets its failing cases listed
    console = Console(record=True, width=200, highlight=False)
    print_report(report, console, verbose=True)
    assert re.findall(r"^(\w+) — ", console.export_text(), flags=re.M) == [*OPS, "backward"]


def test_does_the_feedback_page_show_the_ops_passed_and_their_waived_cases_as_not_counted(report):
    page = render_feedback(report)
    for op in OPS:
        heading = re.search(rf'<section class="task" id="task-{op}"[^>]*>\s*<h2[^>]*><span class="(\w+)">', page)
        assert heading and heading.group(1) == "passed"
    assert re.search(r'<section class="task" id="task-backward"[^>]*>\s*<h2[^>]*><span class="failed">', page)
    assert page.count(" not counted<sup>*</sup>)</span>") == len(OPS)
    assert "failed, not counted here" in page  # the mark of a hidden case waived, explained
    mul = page[page.index('<section class="task" id="task-mul"'):page.index('<section class="task" id="task-pow"')]
    assert "look for what the public cases may not cover" not in mul  # no hidden case of mul failed that counts


def test_does_the_class_summary_count_the_ops_as_passed(report):
    rates = {t["id"]: t["pass_rate"] for t in build_summary([report])["tasks"]}
    assert all(rates[op] == 1.0 for op in OPS) and rates["backward"] == 0.0
