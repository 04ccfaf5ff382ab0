"""How hard the child's sandbox is: the best level this machine offers, found once per process.

Each level has a room of its own here, with its tests beside them in tests/runner/levels/: basic.py (and
Launch, what every level builds on), bwrap/, zygote/ (bubblewrap through a zygote), uid/; what they share
(seccomp.py, keyring.py, parent_death.py, cleanup.py, limits.py) is in runner/. What each guarantees:

    bubblewrap  `bwrap` on PATH and a test run of it works (see bwrap/level.py): no network,
                its own PID space, a read-only view of the Python installation, the
                child's folder and the submission only, a private /tmp, no fork (a
                seccomp filter), no capabilities. Run by root, uid 65534 inside and
                on the host (a user namespace of the grading process's own, setpriv:
                see bwrap/level.py; where that can't be had, uid 0 outside, and the note
                says so); run by another user, that user's uid outside.
    uid         run as root, no usable bubblewrap (a Gradescope or PrairieLearn container):
                the child is chrooted into a root holding its Python, the standard
                library and the allowed packages only (uid/chroot.py: no other installed
                package, no kit file, no shared /tmp or /dev/shm, no /proc), runs as a
                uid/gid of its own among the children running at once (uid/uids.py: its
                folder 0710/0700 to that uid; its SysV IPC removed when it ends), with
                sockets, IPC objects and kernel keyrings refused (a seccomp filter: no key
                of the grader's, none left under the slot's uid for the next child or
                run; its own session keyring, keyring.py) and RLIMIT_NPROC 0
                (no fork). Not held: the kernel is the host's (no namespaces), so the
                child can still tell which pids exist, and what the kernel shares.
    basic       rlimits and a filter against kernel keyrings (its own session keyring, no
                keyring call) only: the student's code can read what the grader can read
                and use the network; run by root, no isolation at all (it runs as root:
                its note says so). What it starts and orphans is killed all the same
                (runner/cleanup.py: the grading process is a child subreaper).

AUTOGRADER_SANDBOX=basic|uid|bubblewrap insists on a level: SandboxUnavailable
(a ConfigError: one line) when it can't be had. Every probe is a real run of the
child's interpreter under that level, made once per process and interpreter.
"""
from __future__ import annotations

import functools
import os

from autograder.config import ConfigError
from autograder.runner.levels.basic import (  # noqa: F401  (Launch, Level, interpreter: the levels' API, re-exported)
    NOBODY, Launch, Level, interpreter,
)
from autograder.runner.levels.bwrap.probe import probe as probe_bubblewrap

ENV = "AUTOGRADER_SANDBOX"
NAMES = ("bubblewrap", "uid", "basic")   # best first


class SandboxUnavailable(ConfigError):
    """AUTOGRADER_SANDBOX names a level this machine can't give (or no level): one line."""


# -- choosing -------------------------------------------------------------------------------

def current() -> Level:
    """The level to use now: the one AUTOGRADER_SANDBOX insists on, or the best available."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted and wanted not in NAMES:
        raise SandboxUnavailable(f"{ENV}={wanted}: not a sandbox level; use one of {', '.join(NAMES)}")
    if wanted:
        level, why = _get(wanted, interpreter())
        if level is None:
            raise SandboxUnavailable(f"{ENV}={wanted}: {why}")
        if wanted == "basic":
            return Level(f"{ENV}=basic")
        return level
    return best()


def best() -> Level:
    """The best level that passes its probe (cached per process and interpreter)."""
    return _best(interpreter())


@functools.lru_cache(maxsize=None)
def _best(python: str) -> Level:
    why_not = []
    for name in NAMES[:-1]:
        level, why = _get(name, python)
        if level is not None:
            return level
        why_not.append(why)
    return Level(_basic_why(why_not))


def _basic_why(why_not: list[str]) -> str:
    bwrap_why, uid_why = why_not
    bwrap_part = "no bubblewrap" if bwrap_why.startswith("no bwrap") else "bubblewrap failed its test run"
    uid_part = "not root" if uid_why == "not root" else "the uid level failed its test run"
    return f"{bwrap_part}, {uid_part}"


@functools.lru_cache(maxsize=None)
def _get(name: str, python: str) -> tuple[Level | None, str]:
    """(the level, "") if it works here, else (None, why not)."""
    if name == "basic":
        return Level(), ""
    if name == "uid":  # imported here: a check by a user other than root never needs it
        from autograder.runner.levels.uid.level import probe as probe_uid
        return probe_uid(python)
    level, why = probe_bubblewrap(python)
    if level is not None and level.userns is not None:  # a zygote needs the own user namespace's capabilities
        from autograder.runner.levels.zygote.level import ZygoteLevel
        return ZygoteLevel(level), why
    return level, why


