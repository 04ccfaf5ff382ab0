"""Is the torch ban judged by what the engine loads, and does a numpy engine get its marks?

Real gradings of the public cases (the goldens cache is shared with the other tests).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.paths import SOLUTIONS

RUBRIC = Rubric(hidden_seed=1)


def solutions(tmp_path: Path, **extra: str) -> Path:
    """A copy of the solutions' micrograd with extra files (name -> text)."""
    root = tmp_path / "work"
    shutil.copytree(SOLUTIONS / "micrograd", root / "micrograd")
    for name, text in extra.items():
        path = root / "micrograd" / name
        path.write_text(text)
    return root


def grade(root: Path):
    return grade_path(root, rubric=RUBRIC, include_hidden=False)


@pytest.mark.parametrize("name", ["test_engine.py", "onehot.py"])
def test_a_file_the_engine_never_loads_may_import_torch(tmp_path, name):
    """Does a student's own test file (or an unused helper) importing torch cost nothing?"""
    report = grade(solutions(tmp_path, **{name: "import torch\nfrom micrograd.engine import Value\n"}))
    assert report.error is None
    assert report.score == report.max_score


def test_a_loaded_module_importing_torch_refuses_the_submission_with_the_reason(tmp_path):
    root = solutions(tmp_path, **{"helpers.py": "import torch\n"})
    engine = root / "micrograd" / "engine.py"
    engine.write_text("from micrograd import helpers\n" + engine.read_text())
    report = grade(root)
    assert report.score == 0
    assert report.error == ("micrograd/helpers.py:1: ImportError: torch is not allowed in this assignment: "
                            "your engine must compute its own gradients")


def test_an_engine_computing_with_numpy_gets_full_marks(tmp_path):
    """np.tanh / np.exp give np.float64 data: graded like floats."""
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    source = engine.read_text().replace("import math", "import math\nimport numpy as np", 1)
    source = source.replace("math.tanh(", "np.tanh(").replace("math.exp(", "np.exp(")
    assert source.count("np.") >= 2
    engine.write_text(source.replace("self.data = data", "self.data = np.float64(data)", 1))
    report = grade(root)
    assert report.error is None, report.error
    assert report.score == report.max_score, [(t.id, c.message) for t in report.tasks for c in t.cases
                                              if c.status != "passed"][:3]
