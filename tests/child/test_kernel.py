"""Is child/kernel.py's clone_into a fork as os.fork makes one (without namespace flags here: those need the
zygote's capabilities, tests/runner/levels/zygote/test_zygote.py)? The child's cached thread id, the import lock, the
at-fork callbacks (random's reseed), the parent's state after.

Each check runs in a process of its own with one thread, as the zygote is: clone_into is the raw syscall, which
skips glibc's at-fork handlers, so a clone made in this test process (pytest-xdist keeps threads in it) can inherit
a lock another thread holds (malloc's) and hang in its child; seen once in the suite, a child asleep in a futex."""
from __future__ import annotations

import ctypes
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.child import kernel

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux's clone")
REPO = Path(__file__).resolve().parents[2]


def _in_child(check) -> bytes:
    """What a clone_into child that runs check() says (b"1": True)."""
    read, write = os.pipe()
    pid = kernel.clone_into(0)
    if pid == 0:
        try:
            ok = bool(check())
        except BaseException:  # noqa: B036
            ok = False
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    said = os.read(read, 1)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return said


def _own_thread_id() -> str:
    address = kernel._tid_field()
    if address is None:
        return "skip"

    def own_tid():
        tid = ctypes.CDLL(None).syscall(kernel._GETTID)
        return tid == os.getpid() and ctypes.c_int.from_address(address).value == tid

    assert _in_child(own_tid) == b"1"
    return "ok"


def _fork_and_reseed() -> str:
    state = random.getstate()

    def fresh():
        import json  # noqa: F401 - the import lock, taken around the clone, is free again here
        child = os.fork()  # glibc's fork from the clone's child, as B forks C
        if child == 0:
            os._exit(7)
        _, status = os.waitpid(child, 0)
        return os.waitstatus_to_exitcode(status) == 7 and random.getstate() != state

    assert _in_child(fresh) == b"1"
    assert random.getstate() == state  # the parent's generator is left as it was
    import json  # noqa: F401 - and the parent's import lock is free too
    return "ok"


def _alone(check: str) -> str:
    """What `check` returns, run in a fresh single-threaded interpreter (an assertion there fails here)."""
    code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import test_kernel; print(test_kernel.{check}())"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_childs_thread_control_block_has_its_own_thread_id():
    if _alone("_own_thread_id") == "skip":
        pytest.skip("no glibc thread descriptor here")


def test_the_child_can_import_fork_and_reseeds_random_as_after_os_fork():
    assert _alone("_fork_and_reseed") == "ok"
