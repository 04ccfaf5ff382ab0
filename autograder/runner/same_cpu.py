"""A grading thread and the sandboxed children it talks to run on one CPU while it grades.

The conversation with a child is a ping-pong: a line to the child, the child computes, a line back,
184 times a submission. Left to itself, the kernel often wakes the other side on another, idle CPU,
and on a virtual machine waking an idle CPU costs far more than the work: on the 2-core VM this was
measured on, a bare pipe ping-pong between two Python processes cost 38 us of CPU a round trip across
CPUs and 7 us on one (benchmarks/same_cpu.py). So while a thread runs cases, it and every process it
starts (a zygote, a bwrap, an interpreter: they inherit the mask) are held on one CPU of those it
may use; afterwards the thread gets its own mask back, so that what it starts later (a pool of
workers, say) is not held there.

Which CPU: each grading thread of the machine takes a slot (an exclusive lock on a file, released
when the thread's process ends) on the allowed CPU that the fewest others hold: a class's workers,
and two graders started together, spread over the CPUs rather than pile on one.
The slots are files in a folder of the user's own, 0700 (own_folders.py): /tmp/backprop-kit-cpus-<uid>,
or, where that name is taken by someone else (another user's folder, a planted link: never followed),
cpus/ in the kit's cache; opened with O_NOFOLLOW and O_CLOEXEC (no child inherits a slot: a slot is
free again the moment its holder dies).
AUTOGRADER_SAME_CPU=0 turns it off; where the OS can't pin (macOS), nothing is done.
`held_by` says which CPUs given processes hold slots on (the kernel's /proc/locks): a batch's confirmer keeps
off its workers' CPUs with it (batch/confirmer.py), whoever else holds slots on the machine.
"""
from __future__ import annotations

import fcntl
import os
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from autograder.own_folders import NotOwnFolder, cache_dir, open_own, own_folder

ENV = "AUTOGRADER_SAME_CPU"
MAX_LEVELS = 256  # grading threads a CPU at most, counted by the slots
_HELD = threading.local()  # this thread's slot: (its CPU, the lock's fd), kept for the process's life


def wanted() -> bool:
    return os.environ.get(ENV, "").strip() != "0" and hasattr(os, "sched_setaffinity")


@contextmanager
def one_cpu() -> Iterator[int | None]:
    """Hold this thread (and what it starts meanwhile) on its slot's CPU; the CPU, or None when not held."""
    if not wanted():
        yield None
        return
    try:
        mask = os.sched_getaffinity(0)
    except OSError:
        yield None
        return
    cpus = sorted(mask)
    if len(cpus) < 2:
        yield None
        return
    cpu = _slot(cpus)
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        yield None
        return
    try:
        yield cpu
    finally:
        try:
            os.sched_setaffinity(0, mask)
        except OSError:
            pass


def _slot(cpus: list[int]) -> int:
    """This thread's CPU: a slot taken once and kept while its process lives. The slots are (level, CPU):
    every CPU's slot of level 0 is tried before any of level 1, so the CPU taken is one that the fewest
    grading threads hold."""
    held = getattr(_HELD, "slot", None)
    if held is not None:
        if held[0] in cpus:
            return held[0]
        if held[1] >= 0:  # this thread may no longer use that CPU: its slot is given up
            os.close(held[1])
    folder = _folder()
    if folder is None:
        return _unlocked(cpus)
    for level in range(MAX_LEVELS):
        for cpu in cpus:
            try:
                fd = open_own(folder / f"{cpu}-{level}", os.O_RDWR | os.O_CREAT)
            except OSError:
                return _unlocked(cpus)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            _HELD.slot = (cpu, fd)
            return cpu
    return _unlocked(cpus)


def _unlocked(cpus: list[int]) -> int:
    """No slot could be taken: a CPU by the thread's id."""
    _HELD.slot = (cpus[threading.get_ident() % len(cpus)], -1)
    return _HELD.slot[0]


def _folder() -> Path | None:
    """The machine's slot files for this user: a folder of its own in the temporary folder, else in the kit's
    cache (see the module's doc); None when neither can be had."""
    for folder in (Path(tempfile.gettempdir()) / f"backprop-kit-cpus-{os.geteuid()}", cache_dir() / "cpus"):
        try:
            return own_folder(folder)
        except (NotOwnFolder, OSError):
            continue
    return None


def held_by(pids: set[int]) -> set[int]:
    """The CPUs on which any of `pids` holds a slot (none where slots or /proc/locks can't be read)."""
    folder = _folder() if wanted() else None
    if folder is None or not pids:
        return set()
    cpus: dict[int, int] = {}  # a slot file's inode -> its CPU
    try:
        for entry in os.scandir(folder):
            cpu = entry.name.split("-", 1)[0]
            if cpu.isdigit():
                cpus[entry.inode()] = int(cpu)
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            locks = [line.split() for line in f]
    except OSError:
        return set()
    held = set()
    for fields in locks:  # "1: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF"
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[4].isdigit() and int(fields[4]) in pids:
            inode = fields[5].rsplit(":", 1)[-1]
            if inode.isdigit() and int(inode) in cpus:
                held.add(cpus[int(inode)])
    return held
