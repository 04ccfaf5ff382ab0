"""An endless loop stopped as soon as that can be known, not after the whole case_timeout.

Every case in the kit's library is small (at most a few dozen nodes; the biggest is at most 4x the
biggest before it), so an honest engine answers each one in about the time it took for the cases
before. A case still running FACTOR times longer than the slowest case this submission answered
(and at least FLOOR seconds), and still using the CPU over a short look (PROBE), is stopped there:
it is doing FACTOR times the work of any case before it, which no case here needs. A case that
waits instead (sleeps, or gets no CPU on a loaded machine) is not stopped early: it has until the
case_timeout as before, so a slow but honest engine on a busy machine still passes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from autograder.runner.cleanup import tree_cpu_seconds

FACTOR = 20.0      # times the slowest answered case
FLOOR = 0.25       # seconds: never stopped early before this
PROBE = 0.05       # seconds of looking at the CPU before stopping
BUSY = 0.05        # the share of a core that counts as computing: a loop on a loaded machine still gets
                   # some; a process that sleeps or waits gets none


@dataclass
class EndlessWatch:
    slowest: float = 0.0  # seconds: the longest any case of this submission took to answer

    def answered(self, seconds: float) -> None:
        self.slowest = max(self.slowest, seconds)

    def early_deadline(self, sent: float) -> float | None:
        """When to look at a case sent at `sent` (monotonic), or None before any case answered."""
        if self.slowest <= 0:
            return None
        return sent + max(FLOOR, FACTOR * self.slowest)

    def message(self) -> str:
        """Why the case was stopped, without the seconds measured (they differ from run to run: the
        report must not)."""
        return (f"stopped while still computing, {FACTOR:g} times longer than your slowest case before it took "
                f"(and at least {FLOOR:g} s); this assignment's cases are all about the same size: an endless loop?")


def computing(pid: int, probe: float = PROBE) -> bool:
    """Is the process tree under `pid` using the CPU (at least BUSY of a core over `probe` seconds)?"""
    before, start = tree_cpu_seconds(pid), time.monotonic()
    time.sleep(probe)
    used, spent = tree_cpu_seconds(pid) - before, time.monotonic() - start
    return spent > 0 and used >= BUSY * spent
