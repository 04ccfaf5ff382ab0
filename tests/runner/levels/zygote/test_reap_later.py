"""Does a run end without waiting for its submission's namespace to be torn down (the zygote reaps it while the
grader goes on), and does the next submission still find nothing of it: its processes killed before the run
returns, its abstract socket gone before the next fork, no zombie, the zygote's CPU figure complete?
Real bwrap, real namespaces: skipped where the bubblewrap level has no zygote (not root, no setpriv)."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from autograder.runner import run_cases
from forked import LIMITS, student, zygote_level

pytestmark = pytest.mark.usefixtures("bubblewrap")
NAME = "backprop-test-reap-later"

HOLD = f"""
import os, socket, builtins
held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
held.bind('\\0{NAME}')
held.listen(1)
builtins._held = held
print('pid', os.getpid())
"""

TRY = f"""
import socket
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).bind('\\0{NAME}')
    print('the name is free')
except OSError as err:
    print('the name is taken:', err.strerror)
"""


def mine(level):
    return [z for key, z in level.zygotes.items() if key[0] == os.getpid() and key[1] == threading.get_ident()
            and key[2] is None]


def test_does_a_run_end_before_its_namespace_is_reaped_and_the_next_find_nothing_of_it(tmp_path):
    level = zygote_level()
    run_cases(student(tmp_path, "warm", ""), [], limits=LIMITS)  # this thread's zygote running
    for zygote in mine(level):
        zygote.settle()
    cpu = sum(z.cpu for z in mine(level))
    first = run_cases(student(tmp_path, "first", HOLD), [], limits=LIMITS)
    assert first.imports.output.startswith("pid "), first.imports.output
    zygotes = mine(level)
    assert zygotes and any(z.reaping for z in zygotes), "the run waited for its namespace's teardown"
    assert not level.live
    second = run_cases(student(tmp_path, "second", TRY), [], limits=LIMITS)
    assert second.imports.output == "the name is free\n", second.imports.output
    for zygote in zygotes:
        assert zygote.cpu > 0 and not zygote.reaping  # every reap answered: the CPU the benchmarks read
    assert sum(z.cpu for z in zygotes) > cpu
    for zygote in zygotes:  # bwrap -> (its pid 1) -> the zygote: nothing below the zygote, no zombie
        kids = Path(f"/proc/{zygote.proc.pid}/task/{zygote.proc.pid}/children").read_text().split()
        tree = list(kids)
        while kids:
            pid = kids.pop()
            below = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            tree += below
            kids += below
        assert len(tree) <= 2, tree
    staged = [name for z in zygotes for name in os.listdir(z.staging) if not name.startswith(".held")]
    assert staged == [], "a staged copy left"


def test_is_a_crashed_child_s_exit_status_still_waited_for(tmp_path):
    """A child that ended on its own is reaped the waited way: its status makes the note."""
    level = zygote_level()
    run = run_cases(student(tmp_path, "crash", "import os\nos._exit(7)\n"), [], limits=LIMITS)
    assert "7" in (run.imports.fatal or ""), run.imports
    assert not any(z.reaping for z in mine(level))
