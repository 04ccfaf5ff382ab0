"""Does every failing task open with one next step (where, which rule, what to do), in every reporter?

Real engines are graded (solutions/ with one mistake, and one with a SyntaxError); the step is computed
once (report/next_step.py) and each reporter is read back: the terminal, JSON, the feedback page,
Gradescope's and PrairieLearn's results, the notebook checks.
"""
from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from rich.console import Console

from autograder import notebook_check
from autograder.config import load_rubric
from autograder.goldens import GoldenStore
from autograder.grading import grade_path
from autograder.report import gradescope_json, prairielearn_json
from autograder.report.html_report import render_feedback
from autograder.report.json_report import render_json
from autograder.report.model import Diagnosis
from autograder.report.next_step import next_step, steps
from autograder.report.text import print_report

sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))  # the corpus's harness builds the variants
import variants as corpus  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """name -> (its folder, its Report with the hidden cases): mul with `=` for `+=`, and a SyntaxError in engine.py."""
    work = tmp_path_factory.mktemp("steps")
    rubric = load_rubric(REPO / "assignment.toml")
    store = GoldenStore(cache_dir=work / "goldens")
    mul = corpus.build(corpus.by_id()["mul-assign"], work / "mul")
    broken = corpus.build(None, work / "syntax")
    engine = broken / "micrograd" / "engine.py"
    engine.write_text(engine.read_text().replace("self.grad += other.data * out.grad",
                                                 "self.grad += other.data * out.grad )", 1))
    return {name: (folder, grade_path(folder, rubric=rubric, include_hidden=True, store=store, name=name))
            for name, folder in (("mul", mul), ("syntax", broken))}


def text_of(report) -> str:
    out = io.StringIO()
    print_report(report, Console(file=out, width=200, highlight=False, color_system=None))
    return out.getvalue()


def test_does_the_step_say_the_file_and_line_of_the_closure_and_the_node(graded):
    """mul's step: engine.py, the line of the student's own _backward in __mul__, the node, and the named mistake."""
    folder, report = graded["mul"]
    mul = report.task("mul")
    file, line = mul.where.rsplit(":", 1)
    lines = (folder / "micrograd" / "engine.py").read_text().splitlines()
    assert file == "micrograd/engine.py" and lines[int(line) - 1].strip() == "def _backward():"
    assert "__mul__" in "\n".join(lines[int(line) - 5:int(line)])  # the closure inside __mul__, not __add__'s
    step = next_step(mul, report)
    # proven by repair: the line it changed, inside that closure; the rule said as the mistake, not a likely one
    proven = mul.diagnosis[0].where.line
    assert mul.diagnosis[0].proven and int(line) < proven <= int(line) + 3
    assert step.where.startswith(f"micrograd/engine.py line {proven}") and "at the node out = a * a" in step.where
    assert step.rule.startswith("`x.grad = ...`") and "+=" in step.rule
    assert step.case == "mul/hand-x-times-x" and step.same == 6
    assert [next_step(t, report) for t in report.tasks if t.id != "mul"] == [None] * (len(report.tasks) - 1)


def test_is_a_proven_fix_the_next_step_when_the_diagnosis_has_one(graded):
    """A diagnosis with a fix (set by the repair that proved it) gives that fix as the step's `do`; none, where + rule."""
    _, report = graded["mul"]

    @dataclass(frozen=True)
    class Proven(Diagnosis):
        proven: bool = True
        fix: str | None = "with += on engine.py line 50, all 10 mul cases pass"

    mul = report.task("mul")
    proven = replace(mul, diagnosis=(Proven(mul.diagnosis[0].id, mul.diagnosis[0].message),))
    assert next_step(proven, report).do == "with += on engine.py line 50, all 10 mul cases pass"
    likely = replace(mul, diagnosis=(Diagnosis(mul.diagnosis[0].id, mul.diagnosis[0].message),))  # unproven
    assert next_step(likely, report).do.startswith("Make that change at micrograd/engine.py line")
    assert next_step(likely, report).rule.startswith("Likely mistake: ")


def test_does_every_reporter_open_the_failing_task_with_the_step(graded):
    """The terminal, JSON, the page, Gradescope, PrairieLearn and the notebook check each say where, rule and next."""
    _, report = graded["mul"]
    step = next_step(report.task("mul"), report)
    text = text_of(report)
    assert text.index(f"Where: {step.where}") < text.index("Rule:") < text.index("Next:") < text.index("a * a with a")
    assert re.search(r"… and \d+ more failing cases", text) and text.count("hint:") == 1
    data = json.loads(render_json(report))
    assert next(t for t in data["tasks"] if t["id"] == "mul")["next_step"] == step.as_dict()
    page = render_feedback(report)
    section = page[page.index('id="task-mul"'):page.index('id="task-pow"')]
    assert section.index("Your next step") < section.index("The first failing case") < section.index("6 more failing cases")
    assert section.count("<figure") == 1
    grade = next(t for t in gradescope_json.results_json(report)["tests"] if t["name"].startswith("mul:"))
    assert grade["output"].splitlines()[1:4] == [f"  {line}" for line in step.lines()]
    prairie = next(t for t in prairielearn_json.results_json(report)["tests"] if t["name"].startswith("mul:"))
    assert prairie["output"].splitlines()[1:4] == [f"  {line}" for line in step.lines()] and step.rule in prairie["message"]


def test_does_a_notebook_check_say_the_step_once_a_task(graded, capsys, monkeypatch):
    """The first failing case of a task prints the step and its evidence; the next ones, one line each."""
    _, report = graded["mul"]
    monkeypatch.setattr(notebook_check, "_report", lambda *args: report)
    failing = [c.id for c in report.task("mul").cases if c.status != "passed" and c.visibility == "public"]
    for case_id in failing:
        assert notebook_check.case(case_id, notebook="any.ipynb") is False
    out = capsys.readouterr().out
    assert out.count("Where: ") == 1 and out.count("hint:") == 1
    assert len(out.splitlines()) <= 12 + len(failing)


def test_is_a_syntax_error_the_file_the_line_a_caret_and_one_sentence(graded):
    """engine.py with an unmatched ')': one step for every task, its line with a caret under the ')'; a short report."""
    _, report = graded["syntax"]
    found = steps(report)
    assert len(found) == 1 and len(found[0][1]) == len(report.tasks)
    step = found[0][0]
    assert step.where == "micrograd/engine.py" + " line " + step.where.rsplit(" ", 1)[1]
    assert step.source.endswith("out.grad )") and step.caret == " " * step.source.index(")") + "^"
    text = text_of(report)
    assert len(text.splitlines()) <= 10, text
    assert re.search(r"^ +self\.grad \+= other\.data \* out\.grad \)\n +\^$", text, re.M)
    page = render_feedback(report)
    assert page.count("Your next step") == 1 and page.count('<section class="task"') == 0


def test_does_a_report_keep_where_and_its_syntax_lines_through_its_json(graded):
    """The gradebook's store reads a report back from its JSON: where each task is, and the SyntaxError's line, too."""
    from autograder.batch.store import report_from_dict
    from autograder.report.json_report import report_dict

    for _, report in graded.values():  # duration is the store's own column, not the JSON's
        assert report_from_dict(json.loads(json.dumps(report_dict(report)))) == replace(report, duration=0.0)
    assert graded["syntax"][1].syntax and graded["mul"][1].task("mul").where


def test_does_a_broken_nn_py_leave_engines_tasks_in_the_table():
    """nn.py does not import, engine.py does: the table still lists add, and nn's tasks share one step, with its caret."""
    from autograder.report.model import CaseResult, Report, TaskResult

    broken = CaseResult("neuron/a", "error", "public", "micrograd/nn.py did not import (micrograd/nn.py:20: SyntaxError)")
    report = Report("nnsyn", 5.0, 13.0, (TaskResult("add", "the _backward of a + b", 5.0, 5.0,
                                                    (CaseResult("add/a", "passed"),)),
                                         TaskResult("neuron", "Neuron.__call__", 0.0, 8.0, (broken,)),
                                         TaskResult("layer", "Layer.__call__", 0.0, 8.0, (broken,))),
                    import_errors=(("nn", "micrograd/nn.py:20: SyntaxError: unmatched ')'"),),
                    syntax=(("nn", "        return [] )", 19),))
    text = text_of(report)
    assert re.search(r"^add +5/5", text, re.M) and "neuron and layer could not run:" in text
    assert "      return [] )\n                ^\n" in text and text.count("Where:") == 1


def test_does_a_task_say_its_own_status_once_worked_out_and_when_made_again_or_sent():
    """A task's status is worked out once (every renderer asks it of every task): is it still the status of its own
    cases after a pickle round trip (a worker's report) and after dataclasses.replace with other cases?"""
    import pickle
    from dataclasses import replace

    from autograder.report.model import CaseResult, TaskResult

    passed, failed = CaseResult("mul-1", "passed"), CaseResult("mul-2", "failed")
    task = TaskResult("mul", "Mul", 1.0, 1.0, (passed, passed))
    assert task.status == "passed"
    assert pickle.loads(pickle.dumps(task)).status == "passed"
    again = replace(task, cases=(passed, failed))
    assert again.status == "failed" and task.status == "passed"
    assert pickle.loads(pickle.dumps(again)) == again and pickle.loads(pickle.dumps(again)).status == "failed"
    assert task == TaskResult("mul", "Mul", 1.0, 1.0, (passed, passed))  # the worked-out status is no field
