"""Does the class summary say who could not be graded, did not import, timed out or raised, and why?

A real class (the real grader and sandbox) of edits of the solution: nn.py with a SyntaxError, an
endless loop in exp's closure, a relu closure that raises, an engine that imports torch (refused),
and a right one. Every class output names them, and the gradebook's error column says why for each.
"""
from __future__ import annotations

import csv
import json
import shutil

from rich.console import Console

from autograder import paths
from autograder.cli.batch import run_batch_command
from autograder.config import Rubric

EXP = "self.grad += out.data * out.grad"
RELU = "self.grad += (out.data > 0) * out.grad"
EDITS = {  # student -> (file, old, new)
    "syntax": ("nn.py", "class Neuron(Module):", "class Neuron(Module)"),
    "loops": ("engine.py", EXP, "while True:\n                pass"),
    "raises": ("engine.py", RELU, "raise ValueError('relu went wrong here')"),
    "torch": ("engine.py", "import math", "import math\nimport torch"),
}


def a_class(root):
    shutil.copytree(paths.SOLUTIONS, root / "right")
    for student, (name, old, new) in EDITS.items():
        shutil.copytree(paths.SOLUTIONS, root / student)
        path = root / student / "micrograd" / name
        text = path.read_text()
        assert old in text, (student, old)
        path.write_text(text.replace(old, new, 1))
    return root


def test_are_the_students_who_failed_named_with_why_in_every_class_output(tmp_path):
    out = tmp_path / "out"
    console = Console(width=240, highlight=False, force_terminal=False, record=True)
    rubric = Rubric(hidden_seed=1234, case_timeout=0.5)
    code = run_batch_command([a_class(tmp_path / "class")], out, 2, False, rubric, console=console)
    assert code == 1  # torch's submission could not be graded

    with open(out / "gradebook.csv", newline="", encoding="utf-8") as f:
        error = {r["student"]: r["error"] for r in csv.DictReader(f)}
    assert error["right"] == ""
    assert "nn.py:" in error["syntax"] and "SyntaxError" in error["syntax"]
    assert error["loops"].startswith("timed out in exp (")
    assert error["raises"].startswith("raised an error in relu (") and "relu went wrong here" in error["raises"]
    assert "torch" in error["torch"]

    who = json.loads((out / "summary.json").read_text())["who"]
    assert [r["submission"] for r in who["ungradable"]] == ["torch"]
    assert [r["submission"] for r in who["import"]] == ["syntax"]
    assert [r["submission"] for r in who["timeout"]] == ["loops"]
    assert [r["submission"] for r in who["error"]] == ["raises"]  # not syntax: its import is told once

    md = (out / "summary.md").read_text()
    html = (out / "summary.html").read_text()
    for student in EDITS:
        assert f"- {student}: " in md, student
        assert f'<a href="feedback/{student}.html">{student}</a>: ' in html, student
    assert "timed out (1)" in md and "did not import (1)" in md and "raised an error (1)" in md

    said = " ".join(console.export_text().split())
    for line in ("did not import (1): syntax", "timed out (1): loops", "raised an error (1): raises",
                 "could not grade torch:"):
        assert line in said, line
