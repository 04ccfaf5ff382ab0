"""Ctrl-C (SIGINT) in a batch's grading process: held off while a result is stored, kept from the processes
it starts. Ctrl-C is the grading process's to handle: it stops its workers and says how to resume."""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """A Ctrl-C (SIGINT) that comes meanwhile takes effect at the end, not halfway through: the
    handler is swapped for one that notes it (a block would not do: the pool's own threads take
    the signal then, and Python runs its handler in the main thread all the same)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and callable(old):
        old(signal.SIGINT, None)  # Python's own: KeyboardInterrupt


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT while a process is started (a pool's worker): the block is
    inherited, so a Ctrl-C while it is still importing (before it ignores SIGINT) prints no traceback from it.
    The parent's own Ctrl-C stays pending and arrives the moment the block is lifted."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
