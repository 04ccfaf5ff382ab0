"""Kernel keyrings and the child (issue 28, class 1): its own session keyring, and every filter refusing keys;
the uid level's filter keeping the signal that ends a child with its grading thread (issue 31, item 5)."""
from __future__ import annotations

import ctypes
import errno
import os
import platform

import pytest

from autograder.runner import keyring, seccomp

KEYCTL = keyring.KEYCTL.get(platform.machine())
pytestmark = pytest.mark.skipif(KEYCTL is None, reason="keyctl's number is known for x86_64 and aarch64 only")
ADD_KEY, REQUEST_KEY = {"x86_64": (248, 249), "aarch64": (217, 218)}.get(platform.machine(), (None, None))
KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING = 0, -3


def _in_child(work) -> int:
    """Run work() in a forked process; its exit status (work returns a small int)."""
    pid = os.fork()
    if pid == 0:
        try:
            code = work()
        except BaseException:  # noqa: B036
            code = 99
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _syscall():
    call = ctypes.CDLL(None, use_errno=True).syscall
    call.restype = ctypes.c_long
    return call


def _session_id() -> int:
    return _syscall()(KEYCTL, KEYCTL_GET_KEYRING_ID, ctypes.c_long(KEY_SPEC_SESSION_KEYRING), 1)


def test_does_the_joiner_give_the_process_a_session_keyring_other_than_its_parents():
    join, mine = keyring.joiner(), _session_id()
    assert mine > 0

    def work():
        join()
        theirs = _session_id()
        return 0 if theirs > 0 and theirs != mine else 1

    assert _in_child(work) == 0
    assert _session_id() == mine, "the parent's own keyring is left as it was"


@pytest.mark.parametrize("name", ["fork_filter", "ipc_filter", "keys_filter"])
def test_does_every_filter_refuse_add_key_request_key_and_keyctl_with_eperm(name):
    install = seccomp.installer(getattr(seccomp, name)())
    call = _syscall()

    def work():
        install()
        errnos = []
        for args in ((ADD_KEY, b"user", b"hx", b"x", 1, ctypes.c_long(-3)),
                     (REQUEST_KEY, b"user", b"hx", None, ctypes.c_long(0)),
                     (KEYCTL, KEYCTL_GET_KEYRING_ID, ctypes.c_long(KEY_SPEC_SESSION_KEYRING), 0)):
            errnos.append(ctypes.get_errno() if call(*args) < 0 else 0)
        return 0 if errnos == [errno.EPERM] * 3 else 1

    assert _in_child(work) == 0


def test_does_the_uid_levels_filter_keep_the_parent_death_signal_and_allow_other_prctls():
    install = seccomp.installer(seccomp.ipc_filter())
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def work():
        install()
        refused = prctl(1, 0, 0, 0, 0) == -1 and ctypes.get_errno() == errno.EPERM  # PR_SET_PDEATHSIG
        allowed = prctl(15, b"hx-name", 0, 0, 0) == 0  # PR_SET_NAME
        return 0 if refused and allowed else 1

    assert _in_child(work) == 0
