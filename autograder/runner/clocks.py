"""How long a run awaits its import and its cases, and when its submission's budget is spent: on the wall
clock (a first pass, WallClock), or by what the child does (a confirmation, WorkClock: confirm.py).

A confirmation's budget is the same number of seconds as the first pass's, counted in what its children did
(CPU, and waiting while not runnable: endless.timed_by_work), so a loaded machine, or the idle priority a
batch's confirmer runs at, changes neither a case's verdict nor where the budget runs out.
"""
from __future__ import annotations

import time
from typing import Callable

from autograder.runner.endless import timed_by_work

Wait = Callable[[float], object]


class WallClock:
    def __init__(self, budget: float):
        self.end = time.monotonic() + budget  # the submission's budget, on the clock

    def out(self) -> bool:
        """Is the submission's budget spent?"""
        return time.monotonic() >= self.end

    def import_line(self, pid: int, seconds: float, wait: Wait, timeout: object) -> object:
        """The import's line (what `wait(until)` gives), or `timeout` after `seconds` or at the budget's end."""
        return wait(min(time.monotonic() + seconds, self.end))


class WorkClock:
    end = float("inf")  # never on the clock

    def __init__(self, budget: float):
        self.left = budget  # seconds of CPU and waiting the submission's children have left

    def out(self) -> bool:
        return self.left <= 0

    def import_line(self, pid: int, seconds: float, wait: Wait, timeout: object) -> object:
        return self.case(pid, seconds, wait, timeout)[0]

    def case(self, pid: int, seconds: float, wait: Wait, timeout: object) -> tuple[object, bool]:
        """(the answer, or `timeout` once the tree under `pid` computed or waited `seconds`, or the budget is
        spent; whether it computed through its whole `seconds`)."""
        limit = max(0.01, min(seconds, self.left))
        raw, why, spent = timed_by_work(pid, limit, wait, timeout)
        self.left -= spent
        return raw, why == "computing" and limit >= seconds
