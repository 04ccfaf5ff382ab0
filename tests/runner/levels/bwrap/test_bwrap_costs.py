"""What a bubblewrap child costs the grading process around it: no scan of /proc at its end,
no walk of the installation at its start (issue 23: the per-submission overhead)."""
from __future__ import annotations

import uuid

import pytest

from autograder.runner import kill, levels, packages, session
from autograder.runner.levels.bwrap import level as bwrap, probe as bwrap_probe

from test_sandbox_levels import marked_processes
from test_session import make_student, poke, add_case, run

LEVEL, WHY = bwrap_probe.probe(levels.interpreter())
needs_bwrap = pytest.mark.skipif(LEVEL is None, reason=f"bubblewrap unusable here: {WHY}")


def _level_without_filter() -> bwrap.BubblewrapLevel:
    level = bwrap.BubblewrapLevel(LEVEL.bwrap, LEVEL.python, LEVEL.features, LEVEL.userns)
    level.seccomp = None  # so the student's code can fork: the kill must still end what it started
    return level


@needs_bwrap
@pytest.mark.parametrize("then", ["while True: pass", "time.sleep(0.3)"], ids=["timeout", "completion"])
def test_does_ending_a_child_kill_what_it_forked_without_scanning_proc(monkeypatch, tmp_path, then):
    """The namespace's pid 1 dies with bwrap's group, and the kernel ends the rest: no session scan."""
    level = _level_without_filter()
    monkeypatch.setattr(session, "current_level", lambda: level)

    def no_scan(sid):
        raise AssertionError("the session was looked for in /proc")
    monkeypatch.setattr(kill, "_session_members", no_scan)
    marker = f"stray-{uuid.uuid4().hex}"
    student = make_student(tmp_path, f"""
        import subprocess, time
        def _spawn(self):
            subprocess.Popen(["sleep", "1000", "{marker}"], start_new_session=True)
            {then}
            return 1.0
        Value.spawn = _spawn
    """)
    result = run(student, [poke("add/spawn", "spawn"), add_case("mul/after", task="mul")])
    assert result.sandbox == "bubblewrap"
    assert result.outcomes["mul/after"].status == "ok"
    assert marked_processes(marker) == []


@needs_bwrap
def test_is_the_installation_walked_once_per_level_not_per_child(monkeypatch, tmp_path):
    """The masks over site-packages are found once; every child still gets all of them."""
    level = _level_without_filter()
    calls = []
    real = packages.installed_dirs
    monkeypatch.setattr(bwrap, "installed_dirs", lambda prefixes: calls.append(prefixes) or real(prefixes))
    first = level.argv(str(tmp_path), None, None)
    second = level.argv(str(tmp_path), None, None)
    assert first == second
    assert len(calls) == 1
    assert set(real(calls[0])) <= set(first)
