"""The zygotes' staging folders: in memory (/dev/shm) where it can be, else in the temporary folder.

A zygote copies each submission it forks into a staging folder of its own (`make`), readable by uid
65534: while it lives, copies of the submissions graded there. It is one of the kit's scratch folders
(autograder/scratch.py): locked for the zygote's life, and removed by the next zygote's sweep where its
grading process died without removing it (kill -9, the out-of-memory killer).

Each submission costs its copy's folders made and removed. On a disk's filesystem that is inodes and
directory blocks allocated and freed, the journal, and (mounted with `discard`) a discard of each block
freed: measured on the kit's ext4 /tmp at 0.26 ms of CPU a submission on a quiet machine and 1.4 ms (8.5 ms
of wall clock) on a loaded one. On /dev/shm, a tmpfs, it is memory only (the files are copied, not linked:
no file of the grader's is shared with the child). Where /dev/shm is missing, can't be written or has less
than SHM_ROOM free, the staging folder is in the temporary folder, as before.
"""
from __future__ import annotations

import os

from autograder import scratch

PREFIX = "backprop-staging-"
HELD = scratch.HELD
SHM = "/dev/shm"
SHM_ROOM = 256 << 20  # bytes free on /dev/shm for it to be used (a submission's copy is far smaller)


def place() -> str | None:
    """Where the staging folder goes: SHM where it can be, else None (the temporary folder)."""
    try:
        st = os.statvfs(SHM)
    except OSError:
        return None
    if not os.access(SHM, os.W_OK | os.X_OK) or st.f_bavail * st.f_frsize < SHM_ROOM:
        return None
    return SHM


def make() -> tuple[str, int]:
    """A new staging folder (0755) and the fd of its lock, held until the folder is removed."""
    return scratch.make(PREFIX, 0o755, place())


def sweep(folder: str | None = None) -> int:
    """What killed runs left (scratch.sweep): how many folders went. Without a folder: the temporary folder's
    (once per process) and SHM's."""
    if folder is not None:
        return scratch.sweep(folder)
    return scratch.sweep() + (scratch.sweep(SHM) if place() else 0)
