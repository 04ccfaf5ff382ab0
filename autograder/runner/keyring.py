"""A session keyring of the child's own, joined before its code runs (keyctl JOIN_SESSION_KEYRING, no name).

A process inherits its parent's session keyring: the grader's, where a login keeps an instructor's
Kerberos tickets or other keys. Every level starts the child in a new, anonymous one (the preexec of
the basic and uid levels and of bwrap; for each submission of a zygote, child/kernel.py), so that it
possesses no key of the grader's and none of another child's; the seccomp filters then refuse every
keyring call (seccomp.py), so that it can't join another keyring by name, reach its uid's user keyring
or add a key that outlives it. The keyring ends with the last process holding it.
"""
from __future__ import annotations

import ctypes
import errno
import os

KEYCTL_JOIN_SESSION_KEYRING = 1
KEYCTL = {"x86_64": 250, "aarch64": 219}
# a kernel without keys, or a seccomp filter of the grader's own that refuses them already (Docker's): no keyring
# of the grader's can be reached, and none is to be left
NOTHING_TO_LEAVE = (errno.ENOSYS, errno.EPERM)


def joiner(machine: str | None = None):
    """A function, made ahead (it is called between fork and exec), that puts the calling process in a new
    anonymous session keyring; it raises OSError when the kernel refuses for another reason. A no-op where
    keyctl's number is not known (that machine has no seccomp filter either: the levels' notes say so)."""
    number = KEYCTL.get(machine or os.uname().machine)
    if number is None:
        return lambda: None
    syscall = ctypes.CDLL(None, use_errno=True).syscall
    syscall.restype = ctypes.c_long
    syscall.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p]

    def join() -> None:
        if syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None) < 0 and ctypes.get_errno() not in NOTHING_TO_LEAVE:
            raise OSError(ctypes.get_errno(), "a session keyring of the child's own could not be made")
    return join
