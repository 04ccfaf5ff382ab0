"""The zygotes' staging folders in the temporary folder.

A zygote copies each submission it forks into a staging folder of its own (`make`), readable by uid
65534: while it lives, copies of the submissions graded there. It is one of the kit's scratch folders
(autograder/scratch.py): locked for the zygote's life, and removed by the next run's sweep where its
grading process died without removing it (kill -9, the out-of-memory killer).
"""
from __future__ import annotations

from autograder import scratch

PREFIX = "backprop-staging-"
HELD = scratch.HELD


def make() -> tuple[str, int]:
    """A new staging folder (0755) and the fd of its lock, held until the folder is removed."""
    return scratch.make(PREFIX, 0o755)


def sweep(folder: str | None = None) -> int:
    """What killed runs left (scratch.sweep): how many folders went."""
    return scratch.sweep(folder)
