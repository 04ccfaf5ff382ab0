"""Does a confirmation time a case by what it does (its CPU, its waiting while not runnable), not by the clock:
a loop in short-lived threads computes through its time, a sleeper waits through it, and a loop a busy machine
gives little CPU is neither? (issue 29)"""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from autograder.runner.endless import runnable, timed_by_work

CHAIN = """
import threading, time
def spin():
    end = time.thread_time() + 0.005
    while time.thread_time() < end:
        pass
    threading.Thread(target=spin).start()
threading.Thread(target=spin).start()
"""


def never(until: float) -> str:
    """An answer that never comes: the wait lasts until `until`."""
    time.sleep(max(0.0, until - time.monotonic()))
    return "timeout"


@pytest.fixture
def started():
    made = []

    def start(code: str, *, idle: bool = False) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-c", code],
                                   preexec_fn=(lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)))
                                   if idle else None)
        made.append(process)
        time.sleep(0.2)
        return process

    yield start
    for process in made:
        process.kill()
        process.wait()


def test_does_a_loop_in_short_lived_threads_compute_through_its_time(started):
    chain = started(CHAIN)
    raw, why, spent = timed_by_work(chain.pid, 0.5, never, "timeout")
    assert (raw, why) == ("timeout", "computing") and spent >= 0.5


def test_does_a_sleeper_wait_through_its_time_and_a_spinner_not(started):
    nap = started("import time; time.sleep(60)")
    spin = started("while True: pass")
    assert not runnable(nap.pid) and runnable(spin.pid)
    begun = time.monotonic()
    raw, why, _ = timed_by_work(nap.pid, 0.5, never, "timeout")
    assert (raw, why) == ("timeout", "waiting") and time.monotonic() - begun >= 0.5


def test_is_a_loop_at_idle_priority_beside_burners_never_called_waiting(started):
    """Two burners on this machine's cores and a loop at SCHED_IDLE: the loop gets next to no CPU, but it is
    runnable all along, so it is not timed out as waiting; it is stopped only by its CPU."""
    for _ in range(max(2, len(os.sched_getaffinity(0)))):
        started("while True: pass")
    loop = started("while True: pass", idle=True)
    raw, why, spent = timed_by_work(loop.pid, 0.1, never, "timeout")
    assert (raw, why) == ("timeout", "computing") and spent >= 0.1


def test_is_an_answer_taken_at_once():
    nap = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        raw, why, _ = timed_by_work(nap.pid, 5.0, lambda until: "the answer", "timeout")
        assert (raw, why) == ("the answer", None)
    finally:
        nap.kill()
        nap.wait()


def test_is_a_late_reader_not_the_childs_waiting(started):
    """The child answered, then slept; the confirming process, starved of CPU, looks past its look's end, and
    its wait says the time is up (the clock is read before the line): that time is the reader's lateness, not the
    child's waiting. (Seen beside two burners: honest cases of a confirmation ended 'took longer than 0.5 s'.)"""
    answered = started("import time; time.sleep(60)")  # it has written its line and sleeps
    looks = []

    def late(until: float) -> str:
        looks.append(until)
        if len(looks) == 1:  # the reader gets no CPU for 0.7 s, then finds its time up, the line unread
            time.sleep(0.7)
            return "timeout"
        return "the answer"  # read at its next look

    raw, why, _ = timed_by_work(answered.pid, 0.5, late, "timeout")
    assert (raw, why) == ("the answer", None)


def test_is_an_import_that_a_busy_machine_slows_past_import_timeout_still_graded(tmp_path, started):
    """An engine whose import computes ~1.2 s of CPU, with import_timeout 2 s, beside burners on every core:
    on the clock the import may take longer than 2 s (a guess), but it computes less than 2 s, and the
    confirmation, timed by its CPU, grades every case."""
    from test_session import add_case, make_student, run

    from autograder.runner import Limits

    for _ in range(max(2, len(os.sched_getaffinity(0)))):
        started("while True: pass")
    root = make_student(tmp_path, """
        _total = 0
        for _i in range(24_000_000):  # ~1.2 s of CPU at import, once
            _total += _i
    """)
    result = run(root, [add_case("add/one"), add_case("mul/two", task="mul")],
                 limits=Limits(case_timeout=2.0, import_timeout=2.0))
    assert [o.status for o in result.outcomes.values()] == ["ok", "ok"], result.outcomes
