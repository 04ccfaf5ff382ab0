"""The zygotes' staging folders in the temporary folder, and what a run killed outright left of them.

A zygote copies each submission it forks into a staging folder of its own (`make`), readable by uid
65534: while it lives, copies of the submissions graded there. Its lock (.held, flock'd for the zygote's
life, and locked before it is renamed into place) tells a live zygote's folder from one whose grading
process died without removing it (kill -9, the out-of-memory killer); the first zygote a grading process
starts removes those of its user (`sweep`), so that no student's copy outlives a killed run past the next.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile

PREFIX = "backprop-staging-"
HELD = ".held"
_SWEPT: list[int] = []  # the process that swept already (a forked grading process sweeps again)


def make() -> tuple[str, int]:
    """A new staging folder (0755) and the fd of its lock, held until the folder is removed."""
    staging = tempfile.mkdtemp(prefix=PREFIX)
    making = os.path.join(staging, f"{HELD}-{os.getpid()}")
    fd = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(making, os.path.join(staging, HELD))  # seen by a sweep only once it is locked
        os.chmod(staging, 0o755)
    except BaseException:
        os.close(fd)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging, fd


def sweep(folder: str | None = None) -> int:
    """Remove this user's staging folders whose zygote is gone (their lock free), once per process; how many.
    A folder of another user's, or one without a lock (made by an older kit, or being made), is left alone."""
    if _SWEPT and _SWEPT[0] == os.getpid() and folder is None:
        return 0
    _SWEPT[:] = [os.getpid()]
    folder = folder or tempfile.gettempdir()
    removed = 0
    try:
        names = [name for name in os.listdir(folder) if name.startswith(PREFIX)]
    except OSError:
        return 0
    for name in names:
        path = os.path.join(folder, name)
        try:
            st = os.lstat(path)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                continue
            fd = os.open(os.path.join(path, HELD), os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # a live zygote's
        else:
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
        finally:
            os.close(fd)
    return removed
