"""When each confirmation was asked for, began and ended, and what the confirmers took from the grading (a trace
for benchmarks/endless_cost.py and endless_timeline.py): written only where AUTOGRADER_CONFIRM_TRACE names a file.
"""
from __future__ import annotations

import os
import time

from autograder.runner.cleanup import tree_cpu_seconds
from autograder.runner.endless import run_delay

TRACE = "AUTOGRADER_CONFIRM_TRACE"  # a file: when each confirmation was asked for, began and ended (endless_cost.py)


def trace(event: str, name: str = "") -> None:
    """One line to the trace file, where AUTOGRADER_CONFIRM_TRACE names one: the system's monotonic clock
    (the same in every process), the event, the submission, the process."""
    path = os.environ.get(TRACE)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{time.monotonic():.4f} {event} {name or '-'} {os.getpid()}\n")


def trace_waits(workers: list[int]) -> None:
    """Traced (where tracing): how long the grading process's threads and the live process trees of `workers`
    have waited runnable for a CPU (the kernel's run_delay) and computed, in seconds: with a confirmer beside
    them, what its CPU share took from them."""
    if os.environ.get(TRACE):
        import resource

        me = resource.getrusage(resource.RUSAGE_SELF)
        own = 0
        for task in os.listdir("/proc/self/task"):  # the grading process's own threads, not its children
            try:
                with open(f"/proc/self/task/{task}/schedstat", "rb") as f:
                    own += int(f.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
        trace("waits", f"grading={own / 1e9:.3f}"
                       f",{me.ru_utime + me.ru_stime:.3f};workers={sum(run_delay(w) for w in workers):.3f}"
                       f",{sum(tree_cpu_seconds(w) for w in workers):.3f}")
