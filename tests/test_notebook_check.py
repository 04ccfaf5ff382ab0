"""Does a notebook's test cell get the kit's verdict on the saved notebook, and the kit's message?"""
from __future__ import annotations

import nbformat
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
    assert "likely mistake: `x.grad = ...` in *'s _backward overwrites" in said


def test_is_a_hidden_case_only_graded_on_the_instructors_side(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "backprop.ipynb")
    assert notebook_check.case("mul/hidden-1") is False
    assert "instructor's side only" in capsys.readouterr().out


def test_is_a_missing_notebook_said_plainly(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert notebook_check.case("mul/hand-L-graph") is False
    assert "save your notebook as backprop.ipynb" in capsys.readouterr().out
