"""A progress bar with an ETA on a terminal; nothing at all otherwise (logs, CI, pipes)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console

from autograder.report.text import shown


@contextmanager
def progress_bar(total: int, done: int = 0, *, enabled: bool = True,
                 console: Console | None = None) -> Iterator[Callable[[str], None]]:
    """Yield advance(student): one more submission graded. Shown only if stderr is a terminal."""
    console = console or Console(stderr=True)
    if not (enabled and console.is_terminal and total):
        yield lambda student: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn(), TextColumn("[dim]{task.fields[last]}"))
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("grading", total=total, completed=done, last="")

        def advance(student: str) -> None:
            progress.update(task, advance=1, last=shown(student))

        yield advance
