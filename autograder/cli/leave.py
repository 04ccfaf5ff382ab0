"""The end of a student's check: the exit hooks, the output flushed, and the process gone at once.

After `check` has printed its report, the interpreter's own teardown (every module's objects freed, one by
one) is work nobody waits for but the student: measured at 30-100 ms of a check's 0.2-0.5 s on a shared
2-core machine. So `python -m autograder check` ends with `leave`: the exit hooks run as they would (the
zygote stopped and its staging folder removed, temporary folders removed), stdout and stderr flushed (a
closed pipe is exit 120, as Python's own exit says it), then os._exit. Only after a check, whose files are
all closed by then; a command that may leave a file or a database open (grade --out, merge) ends the usual
way, and so does a process with another thread still running.
"""
from __future__ import annotations

import atexit
import os
import sys
import threading

FLUSH_FAILED = 120  # what Python's exit gives when stdout can't be flushed


def leave(code: int) -> None:
    """End the process with `code` now, after the exit hooks and a flush; return (nothing done) while another
    thread runs, whose end the usual exit would wait for."""
    if threading.active_count() != 1:
        return
    atexit._run_exitfuncs()  # what the usual exit runs first (it clears them: none runs twice)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`check | head`), or a stream closed by hand
            code = code or FLUSH_FAILED
    os._exit(code)
