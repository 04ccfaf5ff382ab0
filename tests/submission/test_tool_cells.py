"""Are otter-grader's and nbgrader's own cells in a student's notebook left out, so the student's code is
graded as it is (a full solution with otter's cells scored 0/100; a failing nbgrader assert zeroed every task)?"""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.submission.notebook import notebook_to_python
from autograder.submission.tool_cells import drop_otter

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions" / "micrograd"
OTTER_INIT = "# Initialize Otter\nimport otter\ngrader = otter.Notebook(\"backprop.ipynb\")"


def _solution_cells() -> list[str]:
    nn = (SOLUTIONS / "nn.py").read_text().replace("from micrograd.engine import Value\n", "")
    return [(SOLUTIONS / "engine.py").read_text(), nn, (SOLUTIONS / "train.py").read_text()]


def _notebook(path: Path, cells: list) -> Path:
    nb = new_notebook(cells=[new_markdown_cell("# Backprop")] +
                      [c if isinstance(c, nbformat.NotebookNode) else new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nb, str(path))
    return path


def _nbgrader_cell(source: str, *, grade: bool, solution: bool, grade_id: str, points: float = 0) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": grade, "solution": solution, "locked": not solution,
                                 "grade_id": grade_id, "points": points, "schema_version": 3}
    return cell


def test_does_a_solution_notebook_with_otters_cells_get_full_marks(tmp_path):
    engine, nn, train = _solution_cells()
    nb = _notebook(tmp_path / "backprop.ipynb", [
        OTTER_INIT, engine, 'grader.check("add")\ngrader.check("mul")', nn, "grader.check_all()", train,
        "# Save your notebook first\ngrader.export(pdf=False, run_tests=True)",
    ])
    report = grade_path(nb, rubric=Rubric(), include_hidden=False)
    assert report.error is None and report.score == report.max_score == 100, [
        (t.id, t.cases[0].message) for t in report.tasks if t.score < t.max_score]


def test_does_a_failing_nbgrader_test_cell_cost_nothing_outside_the_kits_own_cases(tmp_path):
    """An nbgrader test cell's assert fails on purpose (the student's mul is wrong): only mul loses points."""
    engine, nn, train = _solution_cells()
    wrong_mul = engine.replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad")
    assert wrong_mul != engine
    nb = _notebook(tmp_path / "hw1.ipynb", [
        _nbgrader_cell(wrong_mul, grade=True, solution=True, grade_id="engine", points=0),
        _nbgrader_cell("a = Value(2.0); b = a * a; b.backward()\nassert a.grad == 4.0", grade=True, solution=False,
                       grade_id="test_mul", points=5),
        _nbgrader_cell(nn, grade=False, solution=True, grade_id="nn"),
        _nbgrader_cell(train, grade=False, solution=True, grade_id="train"),
    ])
    report = grade_path(nb, rubric=Rubric(), include_hidden=False)
    assert report.error is None
    lost = {t.id for t in report.tasks if t.score < t.max_score}
    assert lost == {"mul"}, lost
    assert "nbgrader test cell, not run" in notebook_to_python(nb)


def test_is_a_grader_bound_to_another_name_also_left_out(tmp_path):
    source = notebook_to_python(_notebook(tmp_path / "n.ipynb", [
        "import otter\ng = otter.Notebook()", "x = 1", "g.check('q1')", "grader_score = 3"]))
    assert "otter" not in source.replace("otter-grader's", "") and "g.check" not in source
    assert "x = 1" in source and "grader_score = 3" in source


def test_are_line_numbers_kept_and_the_students_own_code_untouched():
    source = "x = 1\nimport otter\ngrader.check(\n    'mul',\n)\ndef check(): pass\nresult = grader.check('q')\n"
    out = drop_otter(source)
    assert out.count("\n") == source.count("\n")
    lines = out.split("\n")
    assert lines[0] == "x = 1" and "otter-grader" in lines[1] and all("otter-grader" in l for l in lines[2:5])
    assert lines[5] == "def check(): pass"
    assert lines[6] == "result = grader.check('q')"  # an assignment is the student's: kept


def test_is_source_that_does_not_parse_left_for_the_student_to_see():
    assert drop_otter("def broken(:\nimport otter") == "def broken(:\nimport otter"
