"""Does a check's sandbox start before grading needs it, and is it the very zygote grading then forks from,
held on the CPU its grading thread grades on (issue 32: a check under 0.15 s; runner/warm.py)?
Real bwrap: skipped where the bubblewrap level has no zygote (not root, no setpriv)."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from autograder.config import Rubric
from autograder.runner import Limits, levels, run_cases, same_cpu
from autograder.runner.levels.zygote.level import ZygoteLevel
from autograder.runner.warm import warm

KIT = Path(__file__).resolve().parents[2]
LIMITS = Limits(case_timeout=2.0, import_timeout=5.0)
RUBRIC = Rubric()


@pytest.fixture(autouse=True)
def bubblewrap(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "bubblewrap")
    monkeypatch.delenv("AUTOGRADER_ZYGOTE", raising=False)


def zygotes_of_this_thread(level: ZygoteLevel) -> dict:
    return {key: z for key, z in level.zygotes.items() if key[:2] == (os.getpid(), threading.get_ident())}


def test_does_the_first_child_fork_from_the_zygote_warm_started(tmp_path):
    level = levels.current()
    if not isinstance(level, ZygoteLevel):
        pytest.skip(f"no zygote at this level ({level.name}: the grader is not root, or no setpriv)")
    shutil.copytree(KIT / "solutions" / "micrograd", tmp_path / "micrograd")
    seen = {}

    def check():  # a thread of its own: a zygote is kept per thread, so this one starts fresh
        for key in zygotes_of_this_thread(level):  # an ended thread's, whose ident this one got again
            level.zygotes.pop(key).stop()
        warm(forbidden=RUBRIC.forbidden_imports, allowed=RUBRIC.allowed_imports)
        seen["warmed"] = dict(zygotes_of_this_thread(level))
        seen["counts"] = {key: z.count for key, z in seen["warmed"].items()}
        seen["cpus"] = {key: os.sched_getaffinity(z.proc.pid) for key, z in seen["warmed"].items()}
        seen["slot"] = getattr(same_cpu._HELD, "slot", None)
        seen["run"] = run_cases(tmp_path, [], limits=LIMITS, forbidden=RUBRIC.forbidden_imports,
                                allowed=RUBRIC.allowed_imports)
        seen["after"] = dict(zygotes_of_this_thread(level))

    thread = threading.Thread(target=check)
    thread.start()
    thread.join()
    assert seen["run"].imports.errors == {} and seen["run"].sandbox == "bubblewrap"
    assert len(seen["warmed"]) == 1, "warm started no zygote (or several)"
    assert seen["after"] == seen["warmed"], "grading started a zygote of its own"
    (key, zygote), = seen["after"].items()
    assert zygote.count == seen["counts"][key] + 1, "the child was not forked by the warmed zygote"
    if same_cpu.wanted() and len(os.sched_getaffinity(0)) > 1:  # held where the grading thread's slot is
        assert seen["cpus"][key] == {seen["slot"][0]}


def test_does_warm_start_nothing_at_a_level_without_a_zygote(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "basic")
    warm(forbidden=RUBRIC.forbidden_imports, allowed=RUBRIC.allowed_imports)  # no error, nothing to start
    assert not hasattr(levels.current(), "warm")
