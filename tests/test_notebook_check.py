"""Does a notebook's test cell get the kit's verdict on the saved notebook, and the kit's message?"""
from __future__ import annotations

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from autograder import notebook_check
from autograder.notebooks.solution_cells import module_source


def _notebook(path, *, mul_bug=False):
    engine = module_source("engine")
    if mul_bug:
        engine = engine.replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad")
    cells = [new_code_cell(engine), new_code_cell(module_source("nn")), new_code_cell(module_source("train")),
             new_code_cell("from autograder.notebook_check import case\ncase('mul/hand-L-graph')")]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nb, str(path))
    return path


def test_does_a_case_pass_on_the_solution_and_say_why_on_a_bug(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "backprop.ipynb")
    assert notebook_check.case("mul/hand-L-graph") is True
    _notebook(tmp_path / "backprop.ipynb", mul_bug=True)  # a new content: graded again
    assert notebook_check.case("mul/hand-x-times-x") is False
    said = capsys.readouterr().out
    assert "[failed]" in said and "expected" in said and "hint:" in said
    assert "Rule: `x.grad = ...` in *'s _backward overwrites" in said
    assert "Next: The fix: `+=` in place of `=`" in said  # proven: the repair made every mul case pass


def test_is_a_hidden_case_only_graded_on_the_instructors_side(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "backprop.ipynb")
    assert notebook_check.case("mul/hidden-1") is False
    assert "instructor's side only" in capsys.readouterr().out


def test_is_a_missing_notebook_said_plainly(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert notebook_check.case("mul/hand-L-graph") is False
    assert "save your notebook as backprop.ipynb" in capsys.readouterr().out


def test_does_task_score_count_hidden_cases_only_when_nbgrader_autogrades(tmp_path, capsys, monkeypatch):
    """The released cell names kit_secret/'s path; a student's run scores the public cases and says nothing
    of it; nbgrader's autograde (NBGRADER_EXECUTION=autograde) needs it, and says so when it is not there."""
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "backprop.ipynb")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert notebook_check.task_score("mul", secret="../kit_secret/hw1") == 5
    assert "instructor" not in capsys.readouterr().out
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert notebook_check.task_score("mul", secret="../kit_secret/hw1") == 0
    assert "no ../kit_secret/hw1/assignment.toml here" in capsys.readouterr().out


def test_is_a_score_part_true_exactly_for_the_parts_of_the_kits_score(tmp_path, capsys, monkeypatch):
    """otter's hidden part tests: the parts that pass add up to the kit's score of the task."""
    from autograder.config import Rubric
    from autograder.notebooks.support import write_secret
    from autograder.scoring.parts import parts

    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "backprop.ipynb", mul_bug=True)
    write_secret(tmp_path / "kit_secret", Rubric(hidden_seed=4242))
    report = notebook_check._report(tmp_path / "backprop.ipynb", True, tmp_path / "kit_secret")
    mul = report.task("mul")
    total = 60 * len(mul.cases)
    got = sum(p for i, p in enumerate(parts(total)) if notebook_check.score_part("mul", i, of=total))
    assert got / total * mul.max_score == pytest.approx(mul.score) and 0 < mul.score < mul.max_score
    assert "from the kit, which this part is not in" in capsys.readouterr().out
