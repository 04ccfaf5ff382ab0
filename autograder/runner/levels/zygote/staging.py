"""The zygotes' staging folders: in memory (scratch.memory(): /dev/shm) where they can be, else in the
temporary folder.

A zygote copies each submission it forks into a staging folder of its own (`make`), readable by uid
65534: while it lives, copies of the submissions graded there. It is one of the kit's scratch folders
(autograder/scratch.py): locked for the zygote's life, and removed by the next process's sweep (of both
places) where its grading process died without removing it (kill -9, the out-of-memory killer).

Each submission costs its copy's folders made and removed: on a disk's filesystem, inodes and directory
blocks allocated and freed, the journal and (with `discard`) a discard of each block freed; on /dev/shm,
memory only (scratch.memory's figures). There the files are copied, not linked (another filesystem): no
file of the grader's is shared with the child.
"""
from __future__ import annotations

from autograder import scratch

PREFIX = "backprop-staging-"
HELD = scratch.HELD


def make() -> tuple[str, int]:
    """A new staging folder (0755) and the fd of its lock, held until the folder is removed."""
    return scratch.make(PREFIX, 0o755, scratch.memory())


def sweep(folder: str | None = None) -> int:
    """What killed runs left (scratch.sweep): how many folders went."""
    return scratch.sweep(folder)
