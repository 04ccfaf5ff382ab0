"""The terminal report a student reads: each task's score, and for every
failing case what the code computed, what was expected, and why."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from autograder.report.grouping import same_problems
from autograder.report.inert import inert
from autograder.report.model import Report, TaskResult
from autograder.report.next_step import NextStep, steps
from autograder.report.numbers import show
from autograder.report.task_text import variant_line
from autograder.report.terminal_markup import DoesNotFit, escape
from autograder.report.terminal_plain import Column, PlainConsole, Rows, mode_here

if TYPE_CHECKING:
    from rich.console import Console

STYLE = {"passed": "green", "failed": "red", "error": "red", "missing": "yellow", "timeout": "magenta"}
MARK = {"passed": "✓", "failed": "✗", "error": "!", "missing": "…", "timeout": "⏱"}


def shown(text: str) -> str:
    """Text of the report as the terminal shows it: no markup of rich's, nothing that acts (report/inert.py)."""
    return escape(inert(text))


def ready_rich() -> None:
    """rich made ready before grading: imported now where the report will need it (mode_here None: FORCE_COLOR,
    a dumb terminal...; called while the sandbox boots, its import costs the check no wait), else only found
    installed (a Python without the kit's dependencies: ModuleNotFoundError now, said in one line by the
    command, not after grading)."""
    if mode_here() is None:
        import rich.console
        import rich.table  # noqa: F401
    else:
        import importlib.util

        if importlib.util.find_spec("rich") is None:
            raise ModuleNotFoundError("No module named 'rich'", name="rich")


def print_report(report: Report, console: Console | None = None, *, verbose: bool = False) -> None:
    """The report on `console`, else on stdout: written as rich writes it, without rich where its layout is simple
    (terminal_plain.py), else by rich."""
    if console is None:
        mode = mode_here()
        text = None if mode is None else plain_text(report, *mode, verbose=verbose)
        if text is not None:
            _write(text)
            return
        from rich.console import Console

        console = Console(highlight=False, emoji=False)  # a student's :smile: as typed
    _print_report(report, console, verbose)


def _write(text: str) -> None:
    """text on stdout, flushed, as rich's Console writes it: a closed pipe (`check | true`) ends the command with 1
    and nothing more said (rich's on_broken_pipe: stdout pointed at /dev/null, SystemExit(1))."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None


def plain_text(report: Report, width: int, colour: bool = False, *, verbose: bool = False) -> str | None:
    """The report as rich writes it `width` wide, off a terminal or (colour) on one, where rich's layout takes no
    more than terminal_plain.py writes; None where it may."""
    plain = PlainConsole(width, colour)
    try:
        _print_report(report, plain, verbose)
    except DoesNotFit:
        return None
    return plain.text()


def _print_report(report: Report, console: Console | PlainConsole, verbose: bool) -> None:
    console.print(f"[bold]{shown(report.submission)}[/bold]  (sandbox: {report.sandbox})")
    if report.variant is not None:
        console.print(shown(variant_line(report.variant)))
    if report.error:
        console.print(f"[red]Could not grade: {shown(report.error)}[/red]")
    found = [] if report.error else steps(report)
    stopped = [(step, tasks) for step, tasks in found if len(tasks) > 1 or step.source]  # a module did not import
    said = set(dict(report.import_errors).values()) if stopped else set()
    for note in report.notes:
        if note not in said:  # a module's import error is its step's, below
            console.print(f"[dim]note: {shown(note)}[/dim]")
    _print_output(console, "your code printed while it was imported:", report.import_output, "")
    if stopped and sum(len(tasks) for _, tasks in stopped) == len(report.tasks):  # no task ran: the step, the score
        for step, tasks in stopped:
            console.print(f"\n[bold]{_and(t.id for t in tasks)}[/bold] could not run:")
            _print_step(console, step)
    elif not report.error:  # a submission that could not be graded has one reason, said above
        table = _summary_table(report)
        console.print(table if isinstance(console, PlainConsole) else _rich_table(table))
        _print_waiting(console, report, verbose)
        opened = {t.id: step for step, tasks in found for t in tasks}
        for step, tasks in stopped:
            console.print(f"\n[bold]{_and(t.id for t in tasks)}[/bold] could not run:")
            _print_step(console, step)
        for task in report.tasks:
            if task.id in opened and not any(task in tasks for _, tasks in stopped):
                _print_problems(console, task, opened[task.id], verbose)
            elif verbose and task.waived and task.status == "passed":
                _print_problems(console, task, None, verbose)
    colour = "green" if report.passed else "yellow"
    console.print(f"[bold {colour}]Score: {show(report.score)} / {show(report.max_score)}[/bold {colour}]")


def _print_waiting(console: Console, report: Report, verbose: bool) -> None:
    """The tasks that pass with end-to-end cases not counted yet, and the task those wait for."""
    waiting = [t for t in report.tasks if t.status == "passed" and t.waived]
    if not waiting:
        return
    needed = sorted({n for t in waiting for c in t.cases if not c.counted for n in c.charged_to})
    through = " and ".join(needed) or "a task they need"
    n = sum(t.waived for t in waiting)
    one, many = len(waiting) == 1, n != 1
    console.print(f"[dim]note: {_and(t.id for t in waiting)} {'passes' if one else 'pass'}, but {n} of "
                  f"{'its' if one else 'their'} end-to-end cases {'fail' if many else 'fails'} through {through}, "
                  f"which fails its own cases: {'they count' if many else 'it counts'} once {through} passes"
                  f"{'' if verbose else ' (--verbose shows them)'}[/dim]", soft_wrap=True)


def _and(words) -> str:
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


SUMMARY = (Column("task"), Column("score", right=True), Column("cases", right=True), Column("status"),
           Column("what", style="dim"))


def _summary_table(report: Report) -> Rows:
    rows = []
    for t in report.tasks:
        style = STYLE.get(t.status, "")
        passed = t.count("passed")
        rows.append((
            t.id,
            f"{show(t.score)}/{show(t.max_score)}",
            f"{passed}/{len(t.cases)}",
            f"[{style}]{MARK.get(t.status, '')} {t.status}[/{style}]",
            shown(t.title),
        ))
    return Rows(SUMMARY, tuple(rows))


def _rich_table(rows: Rows):
    """The summary as rich lays it out on a terminal: the status in its colour, the task's title dim."""
    from rich.table import Table

    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in rows.columns:
        table.add_column(column.header, justify="right" if column.right else "left", style=column.style or None)
    for row in rows.rows:
        table.add_row(*row)
    return table


def _print_step(console: Console, step: NextStep) -> None:
    """The next step: where, which rule, what to do (report/next_step.py), before any case."""
    for line in step.lines():
        label, colon, rest = line.partition(": ")
        if colon and label in ("Where", "Rule", "Next"):
            console.print(f"  [bold]{label}:[/bold] {shown(rest)}", soft_wrap=True)
        else:  # a SyntaxError's line and its caret, as written
            console.print(f"  {shown(line)}", soft_wrap=True, highlight=False)


def _print_problems(console: Console, task: TaskResult, step: NextStep | None, verbose: bool) -> None:
    console.print(f"\n[bold]{task.id}[/bold] — {shown(task.title)}")
    if step is not None:
        _print_step(console, step)
    else:
        for found in task.diagnosis:
            said = "mistake" if found.proven else "likely mistake"
            console.print(f"  [bold yellow]{said}:[/bold yellow] {shown(found.message)}", soft_wrap=True)
            if found.fix:
                console.print(f"  [bold green]fix:[/bold green] {shown(found.fix)}", soft_wrap=True)
    bad = sorted((c for c in task.cases if c.status != "passed"), key=lambda c: not c.counted)  # counted first
    if not bad:
        console.print("  [red]no case of this task was run[/red]")
        return
    if all(c.status == "missing" for c in bad):
        console.print(f"  [yellow]{shown(bad[0].message)}[/yellow]")
        return
    problems = same_problems(bad)
    listed = problems if verbose else problems[:1]  # the first failing case; the others counted, not repeated
    for case, n in listed:
        style = STYLE.get(case.status, "")
        label = case.title or case.id
        if n > 1:
            label = f"{label} (and {n - 1} more case(s) with the same result)" if case.details else f"{n} cases"
        console.print(f"  [{style}]{MARK[case.status]} {shown(label)}[/{style}]")
        if case.message:
            console.print(f"      {shown(case.message)}")
        for line in case.details:
            console.print(f"      [dim]{shown(line)}[/dim]")
        _print_output(console, "your code printed:", case.output, "      ")
    failing = sum(n for case, n in problems[len(listed):] if case.counted)
    waived = sum(n for case, n in problems[len(listed):] if not case.counted)
    more = " and ".join(part for part in (f"{failing} more failing case{'s' * (failing != 1)}" if failing else "",
                                          f"{waived} not counted here" if waived else "") if part)
    if more:
        console.print(f"  [dim]… and {more} (--verbose shows {'it' if failing + waived == 1 else 'them'})[/dim]")


def _print_output(console: Console, heading: str, output: str, indent: str) -> None:
    """What the student's code printed (already capped), under a heading, each line marked "| "."""
    if not output:
        return
    console.print(f"{indent}{heading}")
    for line in output.split("\n"):
        console.print(f"{indent}  [cyan]|[/cyan] {shown(line)}", soft_wrap=True)
