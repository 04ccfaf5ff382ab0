"""Nothing the grader starts outlives it, however it dies (SIGKILL, the OOM killer, a lost terminal).

Each process the grader starts asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG),
and checks that the parent it was started by is still there (it may have died before the ask):
- a batch's workers (batch/worker.start_worker, the pool's initializer: the parent's pid comes with it);
- the children of the basic and uid levels (their preexec, after the uid is dropped: a change of
  credentials clears the signal);
- bubblewrap, each child's and each zygote's, asks for itself (--die-with-parent: bwrap and the
  sandbox's pid 1, with which the kernel ends the namespace, the zygote's submissions in it too).
The kernel sends it when the *thread* that started the process ends, not the process: a pool's
workers are started by the thread that calls grade_parallel (it waits for them), a zygote by the
grading thread it serves (its key: levels/zygote/level.py), a child by the thread running its cases.
A same_cpu or uid slot is a lock the kernel releases when its holder dies, opened O_CLOEXEC: no
process started meanwhile holds it, so a rerun finds the dead's slots free.
"""
from __future__ import annotations

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1


def dier(parent: int | None = None):
    """A function, made ahead (it may be called between fork and exec), that makes the calling process
    die with SIGKILL when the thread that started it ends, and at once if `parent` (default: the calling
    process now, the parent-to-be of a fork) is no longer its parent."""
    parent = os.getpid() if parent is None else parent
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    except (OSError, AttributeError):  # not Linux: the grader's own cleanup only
        return lambda: None

    def die_with_parent() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # it died before the ask: nobody is left to send the signal
            os.kill(os.getpid(), signal.SIGKILL)
    return die_with_parent
