"""Are a notebook's cells run one after another, as nbgrader and otter run them: does a cell that raises
cost only what it would have defined, with a note saying which cell and where?

Real gradings (public cases) of notebooks made from the solutions' code.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from autograder.child.cells import PER_CELL
from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.submission.notebook import notebook_cells

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "submission"))
from test_notebook import engine_cells, write_notebook  # noqa: E402

RUBRIC = Rubric(hidden_seed=1)
ENGINE, NN, TRAIN = engine_cells()


def grade(tmp_path: Path, *cells: str):
    return grade_path(write_notebook(tmp_path / "hw.ipynb", *cells), rubric=RUBRIC, include_hidden=False)


def scores(report) -> dict[str, float]:
    return {t.id: t.score for t in report.tasks}


def test_does_a_failing_cell_between_right_ones_cost_nothing_and_say_where(tmp_path):
    own_check = "a = Value(2.0); b = a * a; b.backward()\nassert a.grad == 5, 'my own check'"
    report = grade(tmp_path, ENGINE, own_check, "print(a_name_from_a_deleted_cell)", NN, TRAIN)
    assert report.score == report.max_score and report.error is None
    [note] = [n for n in report.notes if "cell(s) of the notebook raised or ran too long" in n]
    source, cells = notebook_cells(tmp_path / "hw.ipynb")
    line = next(first for number, first, last in cells if number == 3) + 2  # cell 3's "# In[3]:", then its assert
    assert "2 cell(s) of the notebook raised or ran too long" in note
    assert f"cell 3: hw.ipynb:{line}: AssertionError: my own check" in note
    assert "cell 4: hw.ipynb:" in note and "NameError: name 'a_name_from_a_deleted_cell' is not defined" in note
    assert source.split("\n")[line - 1].startswith("assert a.grad == 5")


def test_does_a_cell_that_does_not_compile_cost_only_what_it_defines(tmp_path):
    report = grade(tmp_path, ENGINE, NN + "\ndef broken(:\n    pass", TRAIN)
    by_task = scores(report)
    assert all(by_task[t] == report.task(t).max_score for t in ("add", "mul", "backward", "mse_loss", "train"))
    assert by_task["neuron"] == by_task["mlp"] == 0  # the cell that defines them never ran
    assert any("cell 3: hw.ipynb:" in n and "SyntaxError" in n for n in report.notes)


def test_does_a_case_error_still_point_at_the_notebooks_line(tmp_path):
    wrong = ENGINE.replace("other.grad += self.data * out.grad", "other.grad += self.data * out.grad / 0")
    report = grade(tmp_path, "x = 1", wrong, NN, TRAIN)
    mul = report.task("mul")
    source, _ = notebook_cells(tmp_path / "hw.ipynb")
    line = next(i for i, text in enumerate(source.split("\n"), 1) if "/ 0" in text)
    assert any(f"hw.ipynb:{line}" in " ".join((c.message, *c.details)) for c in mul.cases if c.status == "error")
    assert not any("cell(s) of the notebook raised or ran too long" in n for n in report.notes)  # every cell ran


def test_is_a_cell_comparing_with_torch_left_out_as_a_file_the_engine_never_loads(tmp_path):
    """The lecture checks its grads against torch in a cell of its own: that cell is not run (noted),
    the engine the other cells define is graded, and it can't compute with torch (it is not there)."""
    report = grade(tmp_path, ENGINE, NN, TRAIN, "import torch\nx = torch.tensor([1.0], requires_grad=True)")
    assert report.score == report.max_score and report.error is None
    assert any("cell 5: hw.ipynb:" in n and "torch is not allowed" in n for n in report.notes)


def test_does_an_engine_cell_importing_torch_cost_the_engine(tmp_path):
    report = grade(tmp_path, "import torch\n" + ENGINE, NN, TRAIN)
    assert report.task("add").score == report.task("backward").score == 0  # Value was never defined
    assert any("torch is not allowed" in n for n in report.notes)


def test_is_a_long_demo_cell_stopped_so_the_cells_after_it_still_run(tmp_path):
    """A training demo that runs on (and swallows Exceptions) would spend the import's whole time limit."""
    demo = "import time\nwhile True:\n    try:\n        time.sleep(0.5)\n    except Exception:\n        pass"
    report = grade(tmp_path, ENGINE, NN, demo, TRAIN)
    assert report.score == report.max_score
    [note] = [n for n in report.notes if "ran too long" in n]
    stopped = re.search(r"cell 4: stopped after ([\d.]+) s", note)
    assert stopped and float(stopped.group(1)) >= PER_CELL * RUBRIC.import_timeout - 0.1  # its share of the limit
    assert report.duration < RUBRIC.import_timeout


def test_does_a_cell_calling_jupyters_display_run_as_in_jupyter(tmp_path):
    """display() needs no import in a notebook: `display(draw_dot(L))` is no error here either."""
    report = grade(tmp_path, ENGINE, "a = Value(2.0)\ndisplay(a, a * a)\nshown = True", NN, TRAIN)
    assert report.score == report.max_score
    assert not any("cell(s) of the notebook raised" in n for n in report.notes)


def test_are_thousands_of_failing_cells_counted_and_only_the_first_listed(tmp_path):
    report = grade(tmp_path, ENGINE, NN, TRAIN, *[f"raise ValueError('cell {i}')" for i in range(60)])
    assert report.score == report.max_score
    [note] = [n for n in report.notes if "ran too long" in n]
    assert note.startswith("60 cell(s) of the notebook raised") and note.endswith("; and 57 more")
