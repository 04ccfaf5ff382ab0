"""The pool's fork server (fork_server.py) started as `autograder grade ... --out DIR` starts, not when its pool does.

The command spends its first ~0.1 s of CPU importing the CLI and the batch (rich, jinja2, the store) and reading
the class; only then does its pool ask for a server, which takes ~0.17 s more to import the kit and LibCST before
it forks the first worker. Where the run is to grade every submission (a new output folder, or --regrade) with the
local executor, the CLI starts the server first (`start`) and the pool takes it (`take`): the two imports run side
by side on two CPUs, and the workers start about 0.08 s sooner (benchmarks/profile_batch.py --fixed).

The server is the one the pool would start (the same command line, preloads, socket folder and death with the
thread that started it: here the CLI's main thread, which runs the pool too); its environment is the grading
process's as the command starts, which the CLI does not change before its pool starts. A server the pool does not
take (one submission, graded in place; nothing to grade; a bad flag) is stopped at exit, and costs its imports'
CPU beside the grading process's.
"""
from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path

from autograder.batch import STORE_NAME, fork_server

_EARLY: list[tuple[fork_server.Server, int]] = []  # the server started early, and the thread that started it


def start(out: Path, *, regrade: bool, executor: str | None) -> None:
    """The pool's server, started now where the run will grade every submission in a local pool."""
    if _EARLY or not fork_server.wanted() or executor not in (None, "", "local"):
        return
    if not regrade and (Path(out) / STORE_NAME).exists():  # a rerun grades what changed: often one, in place
        return
    from autograder.batch.sigint import sigint_blocked

    server = fork_server.Server()
    with sigint_blocked():  # born deaf to Ctrl-C, as the pool's own
        try:
            server.start()
        except OSError:  # no folder for its socket: the pool tries again, or spawns its workers
            return
    _EARLY.append((server, threading.get_ident()))
    atexit.register(_stop)


def take() -> fork_server.Server | None:
    """The server started early, for the pool about to start in this thread (None: none, or not usable here)."""
    if not _EARLY:
        return None
    server, thread = _EARLY.pop()
    if thread == threading.get_ident() and _alive(server):
        return server
    server.stop()
    return None


def _alive(server: fork_server.Server) -> bool:
    pid = server._forkserver_pid
    try:
        return pid is not None and os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return False


def _stop() -> None:
    while _EARLY:
        _EARLY.pop()[0].stop()
