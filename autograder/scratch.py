"""The grader's own temporary folders, and what a run killed outright left of them.

The grader copies students' files into temporary folders: a submission prepared for grading, a class's
zips unpacked, a submission unpacked on a dask worker, a zygote's staging copies. A run killed outright
(kill -9, the out-of-memory killer, a lost terminal) can't remove them, and they would hold students' work
in the temporary folder for good. So each has a lock inside (.held: flock'd by the process that made it
for as long as the folder is in use, and locked before it is renamed into place, so a sweep never sees a
folder being made as free), and the first folder a process makes sweeps away every folder of the kit's
(by its name's prefix) whose lock is free, of this user only: nothing a killed run left outlives the next.
A folder without a lock (an older kit's, or one being made) is left alone; a link is never followed.

A folder made and removed for every submission (a zygote's staging copy: levels/zygote/staging.py) costs,
on a disk's filesystem, inodes and directory blocks allocated and freed, the journal, and (mounted with
`discard`, as the kit's machine's ext4 is) a discard of each block freed: `memory()` is where such a folder
can go instead, /dev/shm (a tmpfs), where it can be written and has room. A folder that may grow large (a
class's zips unpacked) stays in the temporary folder. The sweep looks in both.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from typing import Iterator

PREFIXES = ("autograder-", "backprop-staging-", "backprop-child-")  # every folder made here starts with one of these
HELD = ".held"
SHM = "/dev/shm"
SHM_ROOM = 256 << 20  # bytes free on SHM for memory() to offer it (a submission's files are far fewer)
_SWEPT: list[int] = []  # the process that swept already (a forked one sweeps again)


def memory() -> str | None:
    """SHM where a folder can be made there (it can be written and has SHM_ROOM free), else None: the
    temporary folder. Measured a submission (benchmarks/staging_cost.py, load 10.3, the kit's ext4 /tmp): a
    zygote's staging copy made and removed, 0.28 ms of CPU and 5.4 ms of wall clock there, 0.30 and 0.56 on SHM;
    a submission prepared in a folder of its own and removed, 1.43 and 14.1 ms there, 0.92 and 1.9 on SHM."""
    try:
        st = os.statvfs(SHM)
    except OSError:
        return None
    if not os.access(SHM, os.W_OK | os.X_OK) or st.f_bavail * st.f_frsize < SHM_ROOM:
        return None
    return SHM


def make(prefix: str, mode: int = 0o700, where: str | None = None) -> tuple[str, int]:
    """A new folder in the temporary folder (or `where`; `mode`) and the fd of its lock, held until `remove`."""
    assert prefix.startswith(PREFIXES), prefix
    sweep()
    folder = tempfile.mkdtemp(prefix=prefix, dir=where)
    making = os.path.join(folder, f"{HELD}-{os.getpid()}")
    try:
        fd = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(making, os.path.join(folder, HELD))  # seen by a sweep only once it is locked
        os.chmod(folder, mode)
    except BaseException:
        remove(folder, fd)
        raise
    return folder, fd


def remove(folder: str, fd: int) -> None:
    """The folder and everything in it gone, then its lock let go."""
    try:
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        os.close(fd)


@contextmanager
def scratch(prefix: str, mode: int = 0o700, where: str | None = None) -> Iterator[str]:
    """A folder of the kit's for the time of a `with` (as tempfile.TemporaryDirectory), swept by a later run
    if this one is killed; in the temporary folder, or `where` (memory())."""
    folder, fd = make(prefix, mode, where)
    try:
        yield folder
    finally:
        remove(folder, fd)


def sweep(folder: str | None = None) -> int:
    """Remove this user's kit folders whose lock is free (their process is gone), in `folder`, or once per
    process in the temporary folder and memory()'s; how many. Another user's folder, a link, or one without a
    lock is left alone."""
    if folder is None:
        if _SWEPT and _SWEPT[0] == os.getpid():
            return 0
        _SWEPT[:] = [os.getpid()]
        shm = memory()
        return sweep(tempfile.gettempdir()) + (sweep(shm) if shm and shm != tempfile.gettempdir() else 0)
    try:
        names = [name for name in os.listdir(folder) if name.startswith(PREFIXES)]
    except OSError:
        return 0
    return sum(_remove_if_free(os.path.join(folder, name)) for name in names)


def _remove_if_free(path: str) -> int:
    try:
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
            return 0
        fd = os.open(os.path.join(path, HELD), os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return 0
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # in use
    else:
        shutil.rmtree(path, ignore_errors=True)
        return 1
    finally:
        os.close(fd)
