"""Is work a correct engine does once (a self-check in its first backward(), a cache filled on first use, a
lazy `import numpy` and its warm-up) left to finish, on a machine with two CPU burners beside it? (issue 29)"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from one_time_engines import ENGINES

KIT = Path(__file__).resolve().parents[2]


def engine_with(tmp_path: Path, extra: str) -> Path:
    root = tmp_path / "sub"
    shutil.copytree(KIT / "solutions" / "micrograd", root / "micrograd")
    engine = root / "micrograd" / "engine.py"
    engine.write_text(engine.read_text() + "\n\n" + extra)
    return root


@pytest.fixture
def two_burners():
    """Two processes spinning on this machine's CPUs for the test's length."""
    burners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        yield burners
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_does_a_correct_engine_doing_work_once_keep_full_marks_beside_two_cpu_burners(tmp_path, name, two_burners):
    from autograder.config import load_rubric
    from autograder.grading import grade_path

    report = grade_path(engine_with(tmp_path, ENGINES[name]), rubric=load_rubric(KIT / "assignment.toml"),
                        include_hidden=True)
    stopped = {case.id: case.message for task in report.tasks for case in task.cases if case.status != "passed"}
    assert stopped == {}
    assert report.score == report.max_score
