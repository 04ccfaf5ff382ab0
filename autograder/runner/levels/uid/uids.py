"""The "uid" level's uids: one of its own for every child running at once, and what a child leaves
behind under it removed when it ends.

A child runs as a uid (and gid) no other running child has: a slot taken by an exclusive lock on
a file of root's (/run/backprop-kit-uids/<uid>, shared by every grading process of the machine,
else <cache>/roots/uids/; flock: it is released when the holder dies, so a crashed grading process
frees its slots), among FIRST..FIRST+COUNT, skipping every uid that
is a real account here. Its files (its folder in the root) are 0700 or group-only to that uid:
another child, another uid, can't read, run or change them, nor signal or trace its processes.
When it ends (`release`), the SysV IPC objects (shared memory, semaphores, message queues) that
uid owns or made are removed, as `ipcrm` would, from /proc/sysvipc, whatever seccomp let through;
where a run died before its children's release (killed outright), the next `take` of that uid
removes them, and the level the child's folders it left (`clear_left`).
Kernel keys, which a uid's user keyring would keep past the child and the run, can't be made under it:
the level's seccomp filter refuses add_key, request_key and keyctl (seccomp.py).
"""
from __future__ import annotations

import ctypes
import fcntl
import os
import pwd
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from autograder.own_folders import own_folder

FIRST, COUNT = 64000, 256      # below 65534 (nobody): inside a container's usual 65536-uid map
IPC_RMID = 0
SYSVIPC = {"shm": ("shmctl", 7, 9), "sem": ("semctl", 4, 6), "msg": ("msgctl", 7, 9)}  # (call, uid, cuid) columns


LOCKS = "/run/backprop-kit-uids"  # one place per machine, whatever cache a grading process uses


def lock_dir(fallback: Path) -> Path:
    """Where the slots' locks are: LOCKS (root's /run: every grading process of the machine agrees on it),
    or `fallback` where /run is not there to write in."""
    if os.path.isdir(os.path.dirname(LOCKS)) and os.access(os.path.dirname(LOCKS), os.W_OK):
        try:
            os.mkdir(LOCKS, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(LOCKS)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid():
            return Path(LOCKS)
    return fallback


class NoFreeUid(OSError):
    """Every uid of the range is taken by a running child (or is a real account)."""


@dataclass
class Slot:
    uid: int
    fd: int  # the lock, held while the child lives


def take(folder: Path) -> Slot:
    """A uid no other running child holds (an exclusive lock in `folder`, the grader's own)."""
    own_folder(folder)  # a link or another user's folder there: NotOwnFolder, never followed
    os.chmod(folder, 0o700)
    for uid in range(FIRST, FIRST + COUNT):
        if _account(uid):
            continue
        fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        remove_ipc(uid)  # what a child of a run that died under this uid left (its release never came)
        return Slot(uid, fd)
    raise NoFreeUid(f"all {COUNT} uids from {FIRST} are in use by running children")


def clear_left(run_dir: str, uid: int) -> int:
    """Remove the children's folders in `run_dir` (a root's run/) that belong to `uid`'s group: a slot just
    taken is held by no live child, so they are what a child of a run that died left. How many."""
    removed = 0
    try:
        entries = os.listdir(run_dir)
    except OSError:
        return 0
    for name in entries:
        path = os.path.join(run_dir, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_gid == uid:
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def release(slot: Slot) -> int:
    """The child has ended: its SysV IPC objects removed, its uid free again. Returns how many were removed."""
    removed = remove_ipc(slot.uid)
    os.close(slot.fd)
    return removed


def _account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def remove_ipc(uid: int, proc: str = "/proc/sysvipc") -> int:
    """Remove every SysV shared memory segment, semaphore set and message queue that `uid` owns or
    created (the ids from /proc/sysvipc/{shm,sem,msg}); how many were removed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return 0
    removed = 0
    for kind, (call, uid_col, cuid_col) in SYSVIPC.items():
        try:
            with open(os.path.join(proc, kind)) as f:
                rows = [line.split() for line in f.read().splitlines()[1:]]
        except OSError:
            continue
        for row in rows:
            try:
                ident, owner, creator = int(row[1]), int(row[uid_col]), int(row[cuid_col])
            except (IndexError, ValueError):
                continue
            if uid in (owner, creator):
                args = (ident, 0, IPC_RMID) if kind == "sem" else (ident, IPC_RMID, None)
                removed += getattr(libc, call)(*args) == 0
    return removed
