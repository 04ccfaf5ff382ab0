"""Folders and locks the kit keeps in places other users can write to (/tmp, a cache set by an
environment variable): made 0700, and used only while they are this user's own.

A folder there may already exist, made by someone else: a local user who holds every CPU slot, or
plants a symbolic link that a grader run as root would follow into a folder of theirs (issue 28,
class 7). `own_folder` makes a missing folder 0700 (and missing parents), and accepts an existing
one only when lstat says it is a folder owned by this user (writable by no one else: its group's and
others' write bits are taken away), in a parent no other user owns (or a link of this user's own to such a folder: never another's link); otherwise
NotOwnFolder, one line naming it and whose it is.
Files in it are opened with O_NOFOLLOW (`open_own`).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from autograder.errors import UserError


class NotOwnFolder(UserError):
    """A folder the kit keeps is held by another user, is a link, or others can write to it: one line."""


def _whose(st: os.stat_result) -> str:
    return "root's" if st.st_uid == 0 else f"uid {st.st_uid}'s"


def why_not_own(path: Path) -> str | None:
    """Why `path` (which exists) is not a folder of this user's alone, or None when it is."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):  # one of this user's own (a cache moved to another disk) leads to a folder checked alike
        if st.st_uid != os.geteuid():
            return f"is a symbolic link of {_whose(st)}"
        target = Path(os.path.realpath(path))
        return None if target == path else why_not_own(target)
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != os.geteuid():
        return f"is {_whose(st)} folder, not this user's"
    if st.st_mode & 0o022:  # its own, made under a umask of 002 (a kit of before): no one else may write it now
        os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o022)
    parent = os.lstat(path.parent)
    if parent.st_uid not in (0, os.geteuid()) and not stat.S_ISLNK(parent.st_mode):
        return f"is in {_whose(parent)} folder {path.parent}"
    return None


def own_folder(path: Path | str, *, hint: str = "remove it") -> Path:
    """`path`, a folder of this user's alone: made 0700 if missing, else checked (see the module's doc).
    Raises NotOwnFolder (one line: what, whose, `hint`) when it is not."""
    path = Path(path)
    try:
        os.mkdir(path, 0o700)
    except FileNotFoundError:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return own_folder(path, hint=hint)
    except FileExistsError:
        pass
    why = why_not_own(path)
    if why is not None:
        raise NotOwnFolder(f"{path} {why}: the kit keeps its files there only in a folder of its user's own; {hint}")
    return path


def open_own(path: Path | str, flags: int, mode: int = 0o600) -> int:
    """os.open with O_NOFOLLOW and O_CLOEXEC (a link planted at `path` is refused: ELOOP), in a folder
    own_folder has checked."""
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)


def cache_dir() -> Path:
    """The kit's cache: $AUTOGRADER_CACHE, else $XDG_CACHE_HOME/backprop-kit, else ~/.cache/backprop-kit."""
    env = os.environ.get("AUTOGRADER_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "backprop-kit"
