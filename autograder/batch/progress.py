"""Progress that never goes silent: a bar with an ETA on a terminal; elsewhere (a log, CI, a pipe) a line every
few seconds with the counts and an estimate, even while nothing finishes.

    grading: 34 of 60 done (12 from before), 41 s so far, about 30 s left

The estimate is the time per item of this run so far times the items left; none before the first is done.
AUTOGRADER_PROGRESS_EVERY sets the seconds between lines (default 5; 0: no lines off a terminal).
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console

from autograder.report.text import shown

EVERY_ENV = "AUTOGRADER_PROGRESS_EVERY"
EVERY = 5.0


@contextmanager
def progress_bar(total: int, done: int = 0, *, enabled: bool = True, console: Console | None = None,
                 what: str = "grading", every: float | None = None) -> Iterator[Callable[[str], None]]:
    """Yield advance(name): one more item done. A bar if stderr is a terminal, else lines every few seconds."""
    console = console or Console(stderr=True)
    if not (enabled and total):
        yield lambda name: None
        return
    if not console.is_terminal:
        with progress_lines(total, done, console=console, what=what, every=every) as advance:
            yield advance
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn(), TextColumn("[dim]{task.fields[last]}"))
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(what, total=total, completed=done, last="")

        def advance(student: str) -> None:
            progress.update(task, advance=1, last=shown(student))

        yield advance


def every_seconds(every: float | None = None) -> float:
    if every is not None:
        return every
    try:
        return max(0.0, float(os.environ.get(EVERY_ENV, EVERY)))
    except ValueError:
        return EVERY


@contextmanager
def progress_lines(total: int, done: int = 0, *, console: Console, what: str,
                   every: float | None = None) -> Iterator[Callable[[str], None]]:
    """A line every `every` seconds (and one at the end) while the work runs, from a thread of its own."""
    every = every_seconds(every)
    if every <= 0:
        yield lambda name: None
        return
    state = {"now": 0}
    start, stop, lock = time.monotonic(), threading.Event(), threading.Lock()

    def line() -> str:
        with lock:
            now = state["now"]
        elapsed = time.monotonic() - start
        left = total - done - now
        before = f" ({done} from before)" if done else ""
        estimate = f", about {_seconds(elapsed / now * left)} left" if now and left else ""
        return f"{what}: {done + now} of {total} done{before}, {_seconds(elapsed)} so far{estimate}"

    def tick() -> None:
        while not stop.wait(every):
            console.print(line(), markup=False, highlight=False, soft_wrap=True)

    thread = threading.Thread(target=tick, name="progress-lines", daemon=True)
    thread.start()

    def advance(name: str) -> None:
        with lock:
            state["now"] += 1

    try:
        yield advance
    finally:
        stop.set()
        thread.join()
        if time.monotonic() - start >= every:   # a run long enough to have had lines: its last one
            console.print(line(), markup=False, highlight=False, soft_wrap=True)


def _seconds(s: float) -> str:
    s = int(round(s))
    return f"{s} s" if s < 120 else f"{s // 60} min {s % 60:02d} s"
