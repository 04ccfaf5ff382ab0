"""An endless loop stopped long before the whole case_timeout, one-time work left to finish.

Every case in the kit's library is small (at most a few dozen nodes; the biggest is at most 4x the
biggest before it), so an honest engine answers each one in about the time it took for the cases
before. A case still running FACTOR times longer than the slowest case this submission answered
(FLOOR at least) is looked at: it is doing FACTOR times the work of any case before it, which no case
here needs, unless it is doing something once, on first use, in this process: an `import numpy` put
inside a method, a self-check in the first backward(), a cache filled on first use. So each process
has ONE_TIME seconds of CPU for such work (the rubric's one_time_work): a case past its look may compute
that much more, and is stopped only if it is still computing after it (in one of LOOKS last looks of
PROBE). What one-time work used is taken from what the process has left; a case that answered after
using some does not count as the submission's slowest (it was done once). Once a case of a submission
has been stopped this way, the processes started after it get no more time for one-time work: an
endless loop costs a batch about FLOOR + ONE_TIME once, and FLOOR after that.

The CPU is what the case's process used in all (its threads, those that ended included, and its
children): the process CPU clock (clock_gettime on the process's clock id: nanoseconds, the kernel's
count for the whole thread group), plus what its reaped children used (/proc's cutime and cstime).
The CPU, not the wall clock, decides: on a loaded machine a case that gets half a CPU spends its
one-time work in twice the time, and is not stopped for it. A case that waits (sleeps, reads a slow
disk, gets no CPU) is not stopped early: it has until the case_timeout.

A stop here is a guess, never a verdict: the run is done again with no early stop (confirm.py), each case
awaited by `timed_by_work` (its case_timeout in CPU seconds, or as long not runnable).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from autograder.runner.cleanup import tree

FACTOR = 20.0     # times the slowest answered case (wall clock) before a case is looked at
FLOOR = 0.1       # seconds: no case is looked at before this
ONE_TIME = 0.3    # seconds of CPU a process may spend past its looks on work done once (Limits.one_time_work)
PROBE = 0.05      # seconds of a last look: is the case still computing?
LOOKS = 3         # looks in a row that see no CPU before a case counts as waiting (a loaded machine may
                  # leave a loop no CPU over one)
BUSY = 0.05       # the share of a core that counts as computing: a loop on a loaded machine still gets
                  # some; a process that sleeps or waits gets none
CONFIRMED = ("still computing after {seconds:g} s of CPU, its whole case_timeout (counted in CPU time: a busy "
             "machine changes nothing): an endless loop?")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_CPUCLOCK_SCHED = 2  # a process CPU clock id: (~pid << 3) | CPUCLOCK_SCHED (linux/posix-timers.h)


@dataclass
class EndlessWatch:
    one_time: float = ONE_TIME  # seconds of CPU each process has for one-time work
    slowest: float = 0.0     # seconds: the longest any case of this submission took to answer (but one-time work)
    left: float = ONE_TIME   # seconds of CPU the running process has left for one-time work
    stopped: int = 0         # cases this watch has stopped
    looked: bool = False     # whether the case under way was still running at its look

    def answered(self, seconds: float) -> None:
        """A case answered in `seconds`: the slowest yet, unless it ran past its look (work done once)."""
        if not self.looked:
            self.slowest = max(self.slowest, seconds)

    def new_process(self) -> None:
        """A fresh child: one-time work happens again there, with its own time, unless a case was stopped."""
        self.left = 0.0 if self.stopped else self.one_time

    def first_look(self, sent: float) -> float | None:
        """When a case sent at `sent` (monotonic) is first looked at, or None before any case answered."""
        return sent + max(FLOOR, FACTOR * self.slowest) if self.slowest > 0 else None

    def message(self) -> str:
        """Why the case was stopped, the same for every case stopped and without the seconds measured (they
        differ from run to run: the report must not)."""
        return (f"stopped while still computing: it ran more than {FACTOR:g} times longer than the cases before it "
                "(work done once aside) and computed on past what its process had left of the "
                f"{self.one_time:g} s of CPU for work done once (an import, a self-check, a cache filled on first use; "
                "none once a case was stopped this way); this assignment's cases are all about the same size: "
                "an endless loop?")


class Probe:
    """The CPU time of the process tree under `pid`, from now on."""

    def __init__(self, pid: int):
        self.pid = pid
        self.started = time.monotonic()
        self.cpu = usage(pid)

    def used(self) -> float:
        """CPU seconds the tree used since."""
        return usage(self.pid) - self.cpu

    def computing(self) -> bool:
        """Did the tree compute (at least BUSY of a core) since?"""
        spent = time.monotonic() - self.started
        return spent > 0 and self.used() >= BUSY * spent


def usage(pid: int) -> float:
    """CPU seconds used by the process tree under `pid`: each live process's threads, those that ended
    included, and the children it reaped."""
    return sum(process_cpu(one) for one in tree(pid))


def process_cpu(pid: int) -> float:
    """One process's CPU seconds (its whole thread group, ended threads included: nanoseconds) and its reaped
    children's (clock ticks); where the process's clock can't be read, its utime + stime in ticks."""
    fields = _stat_fields(pid)
    children = (int(fields[13]) + int(fields[14])) / _TICKS if fields else 0.0
    try:
        return time.clock_gettime_ns(((~pid) << 3) | _CPUCLOCK_SCHED) / 1e9 + children
    except (OSError, AttributeError, OverflowError):
        return (int(fields[11]) + int(fields[12])) / _TICKS + children if fields else 0.0


def _stat_fields(pid: int) -> list[bytes] | None:
    """/proc/<pid>/stat's fields from the state on (utime is [11], stime [12], cutime [13], cstime [14])."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        return fields if len(fields) > 14 else None
    except OSError:
        return None


def watched(watch: EndlessWatch, pid: int, sent: float, deadline: float, wait: Callable[[float], object],
            timeout: object) -> tuple[object, bool]:
    """A case's answer awaited until `deadline` (`wait(until)` gives it, or `timeout` when `until` comes
    first), the process looked at as `watch` says, its answer still awaited while it is: (the answer or
    `timeout`, whether it was stopped early)."""
    first = watch.first_look(sent)
    watch.looked = False
    if first is None or first >= deadline:
        return wait(deadline), False
    raw = wait(first)
    if raw != timeout:
        return raw, False
    watch.looked = True
    since = Probe(pid)  # past its look: what it computes from here is one-time work, up to watch.left
    quiet = 0  # looks in a row that saw it get no CPU
    try:
        while quiet < LOOKS:  # a loaded machine may leave a loop no CPU over one look
            window = Probe(pid)  # on one CPU (same_cpu) the tree can't compute faster than the clock runs
            raw = wait(min(time.monotonic() + max(watch.left - since.used(), PROBE), deadline))
            if raw != timeout or time.monotonic() >= deadline:
                return raw, False
            quiet = 0 if window.computing() else quiet + 1
            if not quiet and since.used() >= watch.left:  # computing still, its time for one-time work spent
                watch.stopped += 1
                return timeout, True
        return wait(deadline), False  # it waits: it keeps its whole time
    finally:
        watch.left = max(0.0, watch.left - since.used())


SLICE = 0.25  # seconds between the looks of a confirmation


def timed_by_work(pid: int, seconds: float, wait: Callable[[float], object],
                  timeout: object) -> tuple[object, str | None, float]:
    """An answer awaited as a confirmation does (confirm.py): until the process tree under `pid` has computed
    `seconds` of CPU, or waited `seconds` (on the clock, while no thread of it was runnable, less what it
    computed). (the answer or `timeout`; why not: "computing", "waiting", or None when it answered; the
    seconds it computed and waited.) A runnable tree the machine gives little CPU (a busy machine, idle
    priority) is neither: CPU and waiting are what the case does, so the verdict is the same on a quiet and a
    loaded machine, at any priority."""
    probe, waited = Probe(pid), 0.0
    last, delayed = probe.cpu, run_delay(pid)
    while True:
        before = time.monotonic()
        raw = wait(before + max(0.01, min(seconds - probe.used(), seconds - waited, SLICE)))
        now, cpu, delay = time.monotonic(), usage(pid), run_delay(pid)
        if raw != timeout:
            return raw, None, cpu - probe.cpu + waited
        if cpu - probe.cpu >= seconds:
            return timeout, "computing", cpu - probe.cpu + waited
        if not runnable(pid):  # asleep now: has it answered while this process waited for a CPU itself?
            raw = wait(time.monotonic() + PROBE)
            if raw != timeout:
                return raw, None, cpu - probe.cpu + waited
            waited += max(0.0, (now - before) - (cpu - last) - (delay - delayed))  # neither computing nor queued
        last, delayed = cpu, delay
        if waited >= seconds:
            return timeout, "waiting", cpu - probe.cpu + waited


def threads(pid: int) -> Iterator[str]:
    """/proc/<process>/task/<tid> of every live thread of the process tree under `pid`."""
    for one in tree(pid):
        try:
            tasks = os.listdir(f"/proc/{one}/task")
        except OSError:
            continue
        for tid in tasks:
            yield f"/proc/{one}/task/{tid}"


def run_delay(pid: int) -> float:
    """Seconds the live threads of the tree under `pid` have spent runnable, waiting for a CPU (the kernel's
    schedstat run_delay; 0 where it keeps none). A look that ends with the tree asleep is not all waiting: on a
    loaded machine much of it may have been spent in the run queue."""
    total = 0
    for thread in threads(pid):
        try:
            with open(f"{thread}/schedstat", "rb") as f:
                total += int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def runnable(pid: int) -> bool:
    """Is a thread of the process tree under `pid` running or waiting only for a CPU (state R)?"""
    for thread in threads(pid):
        try:
            with open(f"{thread}/stat", "rb") as f:
                if f.read().rpartition(b")")[2].split()[:1] == [b"R"]:
                    return True
        except OSError:
            continue
    return False
