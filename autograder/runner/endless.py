"""An endless loop stopped as soon as that can be known, not after the whole case_timeout.

Every case in the kit's library is small (at most a few dozen nodes; the biggest is at most 4x the
biggest before it), so an honest engine answers each one in about the time it took for the cases
before. A case still running FACTOR times longer than the slowest case this submission answered,
and still using the CPU over a short look (PROBE, while its answer is still awaited), is stopped
there: it is doing FACTOR times the work of any case before it, which no case here needs. Two looks:

- from QUIET_FLOOR on, a case that computes without a single read or write call during the look
  (the kernel's counts syscr and syscw in /proc/<pid>/io): a loop in pure Python, which is what an
  endless loop in a student's engine is. Something done once that takes long, such as an
  `import numpy` put inside a method, reads files, and is left for the second look.
- from FLOOR on, any case still computing, as before.

A case that waits instead (sleeps, or gets no CPU on a loaded machine) is not stopped early: it has
until the case_timeout as before, so a slow but honest engine on a busy machine still passes. Where
/proc can't tell the reads and writes, only the second look is made.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable

from autograder.runner.cleanup import tree

FACTOR = 20.0       # times the slowest answered case
QUIET_FLOOR = 0.1   # seconds: a case computing without reads or writes is never stopped before this
FLOOR = 0.25        # seconds: any other case is never stopped early before this
PROBE = 0.02        # seconds of looking at the CPU and the reads and writes before stopping
BUSY = 0.05         # the share of a core that counts as computing: a loop on a loaded machine still gets
                    # some; a process that sleeps or waits gets none
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Look:
    when: float    # monotonic
    quiet: bool    # stop only a process that reads and writes nothing during the look


@dataclass
class EndlessWatch:
    slowest: float = 0.0  # seconds: the longest any case of this submission took to answer

    def answered(self, seconds: float) -> None:
        self.slowest = max(self.slowest, seconds)

    def first_look(self, sent: float) -> float | None:
        """When the first look is due (the looks' own objects are made only once it is: most cases answer
        before), or None before any case answered."""
        return sent + max(QUIET_FLOOR, FACTOR * self.slowest) if self.slowest > 0 else None

    def looks(self, sent: float) -> tuple[Look, ...]:
        """When to look at a case sent at `sent` (monotonic), in order; none before any case answered."""
        first = self.first_look(sent)
        if first is None:
            return ()
        return Look(first, True), Look(sent + max(FLOOR, FACTOR * self.slowest), False)

    @staticmethod
    def message() -> str:
        """Why the case was stopped, the same whichever look stopped it and without the seconds measured
        (they differ from run to run: the report must not)."""
        return (f"stopped while still computing, more than {FACTOR:g} times longer than your slowest case before it "
                "took; this assignment's cases are all about the same size: an endless loop?")


class Probe:
    """The CPU time and read and write calls of the process tree under `pid`, from now until `endless` is asked."""

    def __init__(self, pid: int):
        self.pid = pid
        self.started = time.monotonic()
        self.cpu, self.calls = usage(pid)

    def endless(self, *, quiet: bool) -> bool:
        """Did the tree compute (at least BUSY of a core) since, and, if `quiet`, read and write nothing?"""
        cpu, calls = usage(self.pid)
        spent = time.monotonic() - self.started
        if spent <= 0 or cpu - self.cpu < BUSY * spent:
            return False
        if not quiet:
            return True
        return self.calls is not None and calls == self.calls


def usage(pid: int) -> tuple[float, int | None]:
    """(CPU seconds, read and write calls made) of the process tree under `pid`; the calls None where
    /proc can't tell them. The CPU is the scheduler's count in nanoseconds (/proc/<pid>/task/*/schedstat), or
    /proc's clock ticks where that is missing."""
    cpu, calls = 0.0, 0
    for one in tree(pid):
        cpu += _run_seconds(one)
        made = _syscalls(one)
        calls = None if made is None or calls is None else calls + made
    return cpu, calls


def _run_seconds(pid: int) -> float:
    """The CPU time of one process: its threads' schedstat (ns), else its utime + stime (ticks), else 0."""
    try:
        total = 0
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return 0.0


def _syscalls(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/io", "rb") as f:
            fields = dict(line.split(b":") for line in f.read().splitlines() if b":" in line)
        return int(fields[b"syscr"]) + int(fields[b"syscw"])
    except (OSError, ValueError, KeyError):
        return None


def watched(watch: EndlessWatch, pid: int, sent: float, deadline: float, wait: Callable[[float], object],
            timeout: object) -> tuple[object, bool]:
    """A case's answer awaited until `deadline` (`wait(until)` gives it, or `timeout` when `until` comes
    first), the process looked at as `watch` says, its answer still awaited while it is: (the answer or
    `timeout`, whether it was stopped early)."""
    first = watch.first_look(sent)
    if first is None or first >= deadline:
        return wait(deadline), False
    raw = wait(first)
    if raw != timeout:
        return raw, False
    for look in watch.looks(sent):
        if look.when >= deadline:
            break
        raw = wait(look.when)
        if raw != timeout:
            return raw, False
        probe = Probe(pid)
        raw = wait(min(time.monotonic() + PROBE, deadline))
        if raw != timeout or time.monotonic() >= deadline:
            return raw, False
        if probe.endless(quiet=look.quiet):
            return timeout, True
    return wait(deadline), False

