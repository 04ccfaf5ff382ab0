"""Is child/kernel.py's clone_into a fork as os.fork makes one (without namespace flags here: those need the
zygote's capabilities, tests/runner/levels/zygote/test_zygote.py)? The child's cached thread id, the import lock, the
at-fork callbacks (random's reseed), the parent's state after."""
from __future__ import annotations

import ctypes
import os
import random
import sys

import pytest

from autograder.child import kernel

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux's clone")


def _in_child(check) -> int:
    """The exit status of a clone_into child that runs check() (True: 0)."""
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


def test_the_childs_thread_control_block_has_its_own_thread_id():
    address = kernel._tid_field()
    if address is None:
        pytest.skip("no glibc thread descriptor here")

    def own_tid():
        tid = ctypes.CDLL(None).syscall(kernel._GETTID)
        return tid == os.getpid() and ctypes.c_int.from_address(address).value == tid

    assert _in_child(own_tid) == b"1"


def test_the_child_can_import_fork_and_reseeds_random_as_after_os_fork():
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
