"""Is an endless loop stopped as soon as it can be known (not after the whole case_timeout), while
a case that only waits, and a slow but honest engine on a busy machine, keep their full time?

The watch's own pass: these run as a batch's workers do (confirm.DEFER), where the guess is returned as it is
and confirmed elsewhere (test_endless_confirm.py: the confirmation)."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from autograder.runner import Limits, run_cases
from autograder.runner.endless import FACTOR, FLOOR, ONE_TIME, EndlessWatch, Probe, runnable, watched
from test_session import add_case, make_student, poke, run

SLOW = Limits(case_timeout=3.0, import_timeout=5.0)


@pytest.fixture(autouse=True)
def first_pass():
    """The guesses as they are: a batch worker's mode (not confirmed here)."""
    from autograder.runner import confirm

    before = confirm.mode()
    confirm.set_mode(confirm.DEFER)
    yield
    confirm.set_mode(before)


def test_is_a_loop_after_answered_cases_stopped_long_before_the_case_timeout(tmp_path):
    root = make_student(tmp_path, """
        def _loop(self):
            while True:
                pass
        Value.loop = _loop
    """)
    started = time.monotonic()
    result = run(root, [add_case("add/one"), add_case("add/two"), poke("mul/loop", "loop", task="mul"),
                        add_case("mul/after", task="mul"), add_case("relu/other", task="relu")], limits=SLOW)
    took = time.monotonic() - started
    loop = result.outcomes["mul/loop"]
    assert loop.status == "timeout" and loop.message.startswith("stopped while still computing")
    assert "still computing" in loop.message and "an endless loop?" in loop.message
    assert result.outcomes["mul/after"].message == "skipped: an earlier case of this task ran too long (above)"
    assert result.outcomes["relu/other"].status == "ok"
    assert took < SLOW.case_timeout  # the loop cost a fraction of its 3 s


def test_is_a_loop_that_reads_nothing_stopped_once_its_time_for_one_time_work_is_spent(tmp_path):
    """A loop in pure Python (an index never advanced) is looked at from FLOOR on, may compute ONE_TIME more
    (work done once), and is stopped at the look after: long before its case_timeout."""
    root = make_student(tmp_path, """
        def _loop(self):
            i, total = 0, 0.0
            while i < 3:  # i never advanced
                total = total + self.data
            return total
        Value.loop = _loop
    """)
    started = time.monotonic()
    result = run(root, [add_case("add/one"), poke("mul/loop", "loop", task="mul"), add_case("relu/after", task="relu")],
                 limits=SLOW)
    assert result.outcomes["mul/loop"].status == "timeout"
    assert result.outcomes["mul/loop"].message.startswith("stopped while still computing")
    assert result.outcomes["relu/after"].status == "ok"
    assert time.monotonic() - started < SLOW.case_timeout


def test_is_an_import_made_on_first_use_left_to_finish(tmp_path):
    """`import numpy` inside a method, on its first call, takes a while after cases of a millisecond and
    computes: but it reads files, so the quiet look leaves it, and it answers in time."""
    root = make_student(tmp_path, """
        def _late(self):
            import numpy
            return float(numpy.float64(self.data) * 2)
        Value.late = _late
    """)
    result = run(root, [add_case("add/one"), add_case("add/two"), poke("mul/late", "late", task="mul")], limits=SLOW)
    assert result.outcomes["mul/late"].status == "ok", result.outcomes["mul/late"].message
    assert result.outcomes["mul/late"].obs == {"result": 0.0}


def test_does_a_probe_count_the_cpu_of_threads_that_ended():
    """A chain of short-lived threads, each computing 5 ms and starting the next: the CPU they used is
    the process's, though none of them is alive when it is looked at."""
    chain = subprocess.Popen([sys.executable, "-c", """
import threading, time
def spin():
    end = time.thread_time() + 0.005
    while time.thread_time() < end:
        pass
    threading.Thread(target=spin).start()
threading.Thread(target=spin).start()
"""])
    try:
        time.sleep(0.2)
        probe = Probe(chain.pid)
        time.sleep(0.3)
        assert probe.computing()  # at least BUSY of a CPU over the 0.3 s
    finally:
        chain.kill()


def test_does_a_case_that_sleeps_keep_its_whole_case_timeout(tmp_path):
    root = make_student(tmp_path, """
        import time
        def _nap(self):
            time.sleep(1.2)
            return 1.0
        Value.nap = _nap
    """)
    result = run(root, [add_case("add/one"), poke("add/nap", "nap")], limits=SLOW)
    assert result.outcomes["add/nap"].status == "ok"  # 1.2 s, far past 20x the first case: not stopped


def test_does_a_slow_honest_engine_pass_every_case_on_a_busy_machine(tmp_path):
    """Every operation busy-waits 2 ms (an engine 100x slower than the lecture's), while two
    processes spin on every core of this machine."""
    root = make_student(tmp_path, """
        import time
        _init = Value.__init__
        def _slow_init(self, *args, **kwargs):
            end = time.perf_counter() + 0.002
            while time.perf_counter() < end:
                pass
            _init(self, *args, **kwargs)
        Value.__init__ = _slow_init
    """)
    from autograder.cases import PUBLIC_SEED, build_cases

    cases = build_cases(seed=PUBLIC_SEED, visibility="public")
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        result = run_cases(root, cases, limits=SLOW)
    finally:
        for b in burners:
            b.kill()
    stopped = {k: o.message for k, o in result.outcomes.items() if o.status == "timeout"}
    assert stopped == {}
    assert len(result.outcomes) == len(cases)


def test_is_a_case_looked_at_only_once_cases_have_answered_and_past_the_floor():
    watch = EndlessWatch()
    assert watch.first_look(100.0) is None
    watch.answered(0.001)
    assert watch.first_look(100.0) == pytest.approx(100.0 + FLOOR)
    watch.answered(0.1)
    assert watch.first_look(100.0) == pytest.approx(100.0 + FACTOR * 0.1)


def test_does_each_process_get_its_time_for_one_time_work_until_a_case_is_stopped():
    """The time for work done once is each process's (it happens again in a fresh one), and what a case
    that answered past its look used is taken from it; after a stop, fresh processes get none."""
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        watch = EndlessWatch()
        watch.answered(0.001)
        watch.new_process()
        assert watch.left == ONE_TIME
        sent = time.monotonic()
        raw, stopped = watched(watch, spin.pid, sent, sent + 30, lambda until: time.sleep(
            max(0.0, until - time.monotonic())) or "timeout", "timeout")
        assert (raw, stopped) == ("timeout", True)
        assert watch.left == 0 and watch.stopped == 1
        watch.new_process()
        assert watch.left == 0
        sent = time.monotonic()
        watched(watch, spin.pid, sent, sent + 30, lambda until: time.sleep(max(0.0, until - time.monotonic())) or
                "timeout", "timeout")
        assert watch.stopped == 2
    finally:
        spin.kill()


def test_does_a_probe_tell_a_spinning_process_from_a_sleeping_one():
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    nap = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        end = time.monotonic() + 30  # on a loaded machine the napper's start (an interpreter) may take a while
        while runnable(nap.pid) and time.monotonic() < end:
            time.sleep(0.05)
        spinning, napping = Probe(spin.pid), Probe(nap.pid)
        time.sleep(0.2)
        assert spinning.computing()
        assert not napping.computing()
    finally:
        spin.kill()
        nap.kill()
