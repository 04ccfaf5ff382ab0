"""Does the proof hold in the shapes students hand in: their own package name, an operation in a file of its
own, a notebook? Each is checked as a student's `autograder check` would (a real child runs the repair)."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.paths import KIT_ROOT, SOLUTIONS
from autograder.report.model import Place

RUBRIC = load_rubric(KIT_ROOT / "assignment.toml")
ENGINE = (SOLUTIONS / "micrograd" / "engine.py").read_text()
NN = (SOLUTIONS / "micrograd" / "nn.py").read_text()
TRAIN = (SOLUTIONS / "micrograd" / "train.py").read_text()
RIGHT_MUL = "            self.grad += other.data * out.grad\n            other.grad += self.data * out.grad"


def _check(path: Path, task: str):
    report = grade_path(path, rubric=RUBRIC, include_hidden=False, tasks=[task])
    return report.task(task)


def test_is_a_mistake_proven_in_an_own_package_with_the_op_in_a_file_of_its_own(tmp_path):
    """my_micrograd/ (loose files, its own name), mul a function of ops.py bound as `Value.__mul__ = multiply`."""
    folder = tmp_path / "handin" / "my_micrograd"
    folder.mkdir(parents=True)
    start = ENGINE.index("    def __mul__(self, other):")
    end = ENGINE.index("    def __pow__(self, other):")
    method = ENGINE[start:end]
    engine = ENGINE[:start] + ENGINE[end:] + "\n\nfrom my_micrograd.ops import multiply\nValue.__mul__ = multiply\n"
    ops = ("def multiply(me, rhs):\n    from my_micrograd.engine import Value\n" + "\n".join(
        line[4:] for line in method.replace("self", "me").replace("other", "rhs").splitlines()[1:]) + "\n")
    ops = ops.replace("me.grad += rhs.data * out.grad", "me.grad = rhs.data * out.grad")
    (folder / "engine.py").write_text(engine)
    (folder / "ops.py").write_text(ops)
    (folder / "nn.py").write_text(NN.replace("from micrograd.engine", "from my_micrograd.engine"))
    (folder / "train.py").write_text(TRAIN)
    task = _check(tmp_path / "handin" / "my_micrograd", "mul")
    (found,) = task.diagnosis
    assert found.id == "overwrites_grad" and found.proven, found
    line = ops.splitlines().index("        me.grad = rhs.data * out.grad") + 1
    assert found.where.file == "ops.py" and found.where.line == line
    assert "me.grad += rhs.data * out.grad" in found.fix


@pytest.mark.parametrize("wrong, mistake, line_of", [
    (RIGHT_MUL.replace("self.grad +=", "self.grad ="), "overwrites_grad", "self.grad = other.data * out.grad"),
    # a repair that adds a line: the cells after it move down in the copy's cell map
    (RIGHT_MUL.split("\n")[1], "one_operand_only", "other.grad += self.data * out.grad"),
])
def test_is_a_mistake_proven_in_a_notebook_with_its_cell_and_line(tmp_path, wrong, mistake, line_of):
    notebook = nbformat.v4.new_notebook()
    engine = ENGINE.replace(RIGHT_MUL, wrong)
    notebook.cells = [nbformat.v4.new_markdown_cell("# My engine"), nbformat.v4.new_code_cell("print('hello')"),
                      nbformat.v4.new_code_cell(engine), nbformat.v4.new_code_cell(NN.replace(
                          "from micrograd.engine import Value\n", "")),
                      nbformat.v4.new_code_cell(TRAIN)]
    path = tmp_path / "hw3.ipynb"
    nbformat.write(notebook, path)
    task = _check(path, "mul")
    (found,) = task.diagnosis
    line = engine.splitlines().index("            " + line_of) + 1
    assert found.id == mistake and found.proven and found.where == Place("hw3.ipynb", line, 3)  # the third cell, counting the markdown
    assert f"hw3.ipynb cell 3, line {line}" in found.fix
