"""Does a grading thread run its cases on one CPU with its children, and give its mask back afterwards?"""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from autograder.runner import same_cpu
from autograder.runner.same_cpu import one_cpu
from test_session import add_case, make_student, poke, run

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                                reason="needs a machine with two CPUs or more, and an OS that can pin")


def test_is_the_thread_held_on_one_cpu_while_it_grades_and_given_its_mask_back():
    mask = os.sched_getaffinity(0)
    with one_cpu() as cpu:
        assert cpu in mask and os.sched_getaffinity(0) == {cpu}
        started = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                                 capture_output=True, text=True, check=True)
        assert started.stdout.strip() == str([cpu])  # what it starts meanwhile is held there too
    assert os.sched_getaffinity(0) == mask


def test_do_two_grading_threads_get_two_cpus(tmp_path, monkeypatch):
    monkeypatch.setattr(same_cpu, "_folder", lambda: tmp_path)  # the machine's other graders hold slots too
    seen, both_inside = {}, threading.Barrier(2)

    def grade(name):
        with one_cpu() as cpu:
            seen[name] = cpu
            both_inside.wait(5)  # each holds its CPU while the other takes one

    threads = [threading.Thread(target=grade, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert None not in seen.values() and seen["a"] != seen["b"]


def test_does_the_variable_turn_it_off(monkeypatch):
    monkeypatch.setenv(same_cpu.ENV, "0")
    mask = os.sched_getaffinity(0)
    with one_cpu() as cpu:
        assert cpu is None and os.sched_getaffinity(0) == mask


@pytest.mark.parametrize("level", ["basic", "bubblewrap"])
def test_does_the_students_process_run_on_the_graders_cpu(tmp_path, monkeypatch, level):
    from autograder.runner.levels import current

    monkeypatch.setenv("AUTOGRADER_SANDBOX", level)
    try:
        current()
    except Exception as err:  # noqa: BLE001 - bubblewrap missing here
        pytest.skip(f"no {level} level here: {err}")
    root = make_student(tmp_path, """
        import os
        def _cpus(self):
            return float(len(os.sched_getaffinity(0)))
        Value.cpus = _cpus
    """)
    result = run(root, [add_case("add/one"), poke("add/cpus", "cpus")])
    assert result.outcomes["add/cpus"].obs == {"result": 1.0}
