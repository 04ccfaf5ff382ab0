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


def test_is_one_time_work_past_the_rubrics_time_stopped_and_kept_when_the_rubric_gives_it_more(tmp_path):
    """A first call doing ~2 s of CPU once: past one_time_work's 0.3 s a guess calls it endless (the cost of
    a cheap guess, said in its message); with one_time_work = 10 it is left to finish, and the next case of
    the same process answers at once. (Timeouts of 10 and 30 s: a loaded machine gives it a fraction of a CPU.)"""
    sys.path.insert(0, str(KIT / "tests" / "runner"))
    from test_session import add_case, make_student, poke, run

    from autograder.runner import Limits

    root = make_student(tmp_path, """
_done = []
def _once(self):
    if not _done:
        total = 0
        for i in range(40_000_000):  # ~2 s of CPU, once a process
            total += i
        _done.append(total)
    return 1.0
Value.once = _once
""")
    cases = [add_case("add/one"), add_case("add/two"), poke("mul/first", "once", task="mul"),
             poke("mul/again", "once", task="mul")]
    guessed = run(root, cases, limits=Limits(case_timeout=10.0, import_timeout=5.0))
    assert guessed.outcomes["mul/first"].status == "timeout"
    said = guessed.outcomes["mul/first"].message
    assert "past what its process had left of the 0.3 s of CPU for work done once" in said
    given = run(root, cases, limits=Limits(case_timeout=30.0, import_timeout=5.0, one_time_work=10.0))
    assert [given.outcomes[c.id].status for c in cases] == ["ok"] * 4
