"""One grade run per output folder at a time.

Two runs writing the same gradebook, reports and store would interleave their
files (last writer wins, row by row). The first run takes an exclusive flock on
OUT/.autograder.lock; a second one is refused at once with a one-line message.
The kernel drops the lock when the run's process ends, however it ends, so a
killed run leaves no stale lock behind (the file may stay; it is not the lock).
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Iterator

LOCK_NAME = ".autograder.lock"


class OutputBusy(Exception):
    """Another grade run holds the output folder."""


@contextlib.contextmanager
def hold_output(out_dir: Path) -> Iterator[None]:
    path = Path(out_dir) / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputBusy(f"another grade run is writing to {out_dir}: wait for it to finish "
                             "(or stop it), then run this command again") from None
        yield
    finally:
        os.close(fd)
