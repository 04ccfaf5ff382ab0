"""A bubblewrap probe that passed, remembered between processes: a student's check skips the test run.

The test run (probe.py) costs a bwrap and a Python start, on every `autograder check`. What decides
its answer is the key: bwrap's path, mtime and size, the interpreter's, the kernel's release and this
boot (a sysctl such as unprivileged user namespaces is set at boot), the uid, the kit's version and
the files that make the test run. Only a probe that passed is remembered (a failure is probed again
next time, so nothing is ever taken away by a stale file), in the user's own cache folder
(own_folders.py: 0700, this user's, in no other user's folder; the file opened with O_NOFOLLOW, and
read only when it is this user's and no one else may write it). Any change to the key: probed again. The
file keeps the KEPT newest keys' findings, so two kits of one user (their files are in the key) do not
each undo the other's.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from autograder import __version__
from autograder.own_folders import NotOwnFolder, cache_dir, open_own, own_folder, why_not_own

NAME = "bwrap-probe.json"
# probes kept, newest first: one per key (several kits, or interpreters, of one user take turns without
# probing again each time: a course's handout beside the instructor's kit, a venv beside the system Python)
KEPT = 8
# the files whose code makes the test run (and so its answer): an edited kit is probed again
_DECIDING = ("probe.py", "level.py", "userns.py", "../basic.py", "../../sandbox.py", "../../../child/main.py")


def _stamp(path: str) -> list:
    try:
        st = os.stat(path)
    except OSError:
        return [path, None]
    return [os.path.realpath(path), st.st_mtime_ns, st.st_size]


def key(bwrap: str, python: str) -> list:
    """Everything that decides the probe's answer, as a JSON list."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = None
    here = Path(__file__).parent
    return [__version__, os.uname().release, boot, os.geteuid(), _stamp(bwrap), _stamp(python),
            *(_stamp(str(here / name)) for name in _DECIDING)]


def recall(bwrap: str, python: str) -> dict | None:
    """What a passed probe with this key found ({"features": [...], "userns": bool, "why": str}), or None."""
    wanted = key(bwrap, python)
    return next((entry for entry in _entries() if entry["key"] == wanted), None)


def _entries() -> list[dict]:
    """The remembered probes, newest first: [] when the file is missing, not to be trusted or of another shape."""
    try:
        folder = cache_dir()
        if why_not_own(folder) is not None:  # another's, or others may write to its parent
            return []
        fd = open_own(folder / NAME, os.O_RDONLY)
    except OSError:
        return []
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return []
        with os.fdopen(fd, "rb", closefd=False) as f:
            saved = json.loads(f.read(65536))
    except (OSError, ValueError):
        return []
    finally:
        os.close(fd)
    probes = saved.get("probes") if isinstance(saved, dict) else None
    return [entry for entry in probes if _well_formed(entry)][:KEPT] if isinstance(probes, list) else []


def _well_formed(entry) -> bool:
    if not isinstance(entry, dict):
        return False
    found, features, userns, why = entry.get("key"), entry.get("features"), entry.get("userns"), entry.get("why")
    return (isinstance(found, list) and isinstance(features, list) and all(isinstance(f, str) for f in features)
            and isinstance(userns, bool) and isinstance(why, str))


def remember(bwrap: str, python: str, features: frozenset[str], userns: bool, why: str) -> None:
    """Keep a passed probe's findings for the next process, beside those of other keys (quietly nothing when
    the cache can't be had)."""
    found = key(bwrap, python)
    entry = {"key": found, "features": sorted(features), "userns": userns, "why": why}
    others = [e for e in _entries() if e["key"] != found]
    try:
        folder = own_folder(cache_dir())
        tmp = folder / f".{NAME}.{os.getpid()}"
        fd = open_own(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        with os.fdopen(fd, "w") as f:
            json.dump({"probes": [entry, *others][:KEPT]}, f)
        os.replace(tmp, folder / NAME)
    except (OSError, NotOwnFolder):
        pass
