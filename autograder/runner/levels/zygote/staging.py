"""The zygotes' staging folders: in memory (scratch.memory(): /dev/shm) where they can be, else in the
temporary folder.

A zygote copies each submission it forks into a staging folder of its own (`make`), readable by uid
65534: while it lives, copies of the submissions graded there. It is one of the kit's scratch folders
(autograder/scratch.py): locked for the zygote's life, and removed by the next process's sweep (of both
places) where its grading process died without removing it (kill -9, the out-of-memory killer).

Each submission costs its copy's folders made and removed: on a disk's filesystem, inodes and directory
blocks allocated and freed, the journal and (with `discard`) a discard of each block freed; on /dev/shm,
memory only (scratch.memory's figures). There the files are copied, not linked (level.stage): the grader's
prepared copy of the submission is in memory too (grading.py), on the same filesystem, and no file of the
grader's is shared with the child. Only where /dev/shm is mounted with the temporary folder's
exec and access-time flags: the child's remount of its copy read-only keeps neither (child/zygote.py), and in
the zygote's user namespace a remount that drops a flag the host set is refused.
"""
from __future__ import annotations

import os
import tempfile

from autograder import scratch

PREFIX = "backprop-staging-"
HELD = scratch.HELD
KEPT_FLAGS = os.ST_NOEXEC | os.ST_NOATIME | os.ST_NODIRATIME | os.ST_RELATIME  # as the temporary folder's, or not used


def place() -> str | None:
    """Where the staging folder goes: scratch.memory() where its mount's flags are the temporary folder's, else
    None (the temporary folder)."""
    shm = scratch.memory()
    try:
        if shm is None or (os.statvfs(shm).f_flag ^ os.statvfs(tempfile.gettempdir()).f_flag) & KEPT_FLAGS:
            return None
    except OSError:
        return None
    return shm


def in_memory(folder: str) -> bool:
    """Is this staging folder in memory (scratch.memory's place)?"""
    return os.path.dirname(folder) == scratch.SHM


def make() -> tuple[str, int]:
    """A new staging folder (0755) and the fd of its lock, held until the folder is removed."""
    return scratch.make(PREFIX, 0o755, place())


def sweep(folder: str | None = None) -> int:
    """What killed runs left (scratch.sweep): how many folders went."""
    return scratch.sweep(folder)
