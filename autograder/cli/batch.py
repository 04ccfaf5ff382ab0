"""`autograder grade PATH... --out DIR [--workers N] [--regrade]`: grade a class.

Exit codes: 0 every submission was graded (however the students did), 1 some
could not be graded (see the gradebook's error column), 2 bad input, 130 Ctrl-C
(what was graded is kept; the same command resumes).
"""
from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.table import Table

from autograder.batch.class_list import load_roster
from autograder.batch.exports import FORENSICS
from autograder.batch.regrade_changes import MD_NAME as CHANGES_MD
from autograder.batch.executors import ExecutorError, executor_from
from autograder.batch.run import STORE_NAME, BatchInputError, BatchInterrupted, grade_batch
from autograder.batch.shard import ShardError, parse_shard
from autograder.batch.shard_run import ShardResult, grade_shard
from autograder.batch.store import StoreError
from autograder.batch.worker import GradeOne, grade_hidden
from autograder.config import ConfigError, Rubric
from autograder.errors import UserError
from autograder.report.numbers import show
from autograder.report.text import shown
from autograder.scratch import scratch

SHOW_ERRORS = 10
SHOW_RETEACH = 5


def run_batch_command(paths: Sequence[Path], out: Path, workers: int | None, regrade: bool, rubric: Rubric,
                      *, shard: str | None = None, executor: str | None = None, grade_one: GradeOne = grade_hidden,
                      console: Console | None = None, roster: Path | None = None) -> int:
    console = console or Console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    out = Path(out)
    if out.exists() and not out.is_dir():
        return _usage(errors, f"{out} is a file; --out needs a folder (new or from an earlier run)")
    if workers is not None and workers < 1:
        return _usage(errors, f"--workers must be at least 1, not {workers}")
    try:
        where = executor_from(executor)
        part = parse_shard(shard) if shard is not None else None
        listed = load_roster(roster) if roster is not None else None
    except (ExecutorError, ShardError, UserError) as err:
        return _usage(errors, str(err))
    try:
        _check_sandbox()
    except ConfigError as err:  # an AUTOGRADER_SANDBOX this machine can't give: once, not on every row
        return _usage(errors, str(err))
    _spawn_without_the_script()
    try:
        from autograder.batch.discover import discover

        with scratch("autograder-intake-") as workdir:
            found = discover([Path(p) for p in paths], Path(workdir))
            for problem in found.problems:
                errors.print(f"[yellow]note:[/yellow] {shown(problem)}", soft_wrap=True)
            if not found.entries:
                return _usage(errors, f"no submissions found in {', '.join(map(str, paths))}: give the folder (or "
                                      "the LMS's download, a .zip) that holds the class's work")
            kwargs = {} if workers is None else {"workers": workers}
            kwargs.update(rubric=rubric, regrade=regrade, grade_one=grade_one, intake=found.problems, executor=where)
            if part is not None:
                mine = sum(part.owns(e.student) for e in found.entries)
                errors.print(f"grading shard {part}: {mine} of {len(found.entries)} submission(s) into "
                             f"{shown(str(out))}", soft_wrap=True)
                return _shard_done(console, grade_shard(found.entries, out, shard=part, roster=listed, **kwargs))
            errors.print(f"grading {len(found.entries)} submission(s) into {shown(str(out))}", soft_wrap=True)
            result = grade_batch(found.entries, out, roster=listed, **kwargs)
    except (BatchInputError, StoreError, ConfigError, UserError) as err:
        return _usage(errors, str(err))
    except BatchInterrupted:
        return 130  # grade_batch said what is kept and how to resume
    except KeyboardInterrupt:
        errors.print(f"autograder: interrupted; run the same command again to finish "
                     f"(what was graded is kept in {shown(str(out / STORE_NAME))})", soft_wrap=True)
        return 130
    print_class_summary(result, graded_now=(result.graded, result.reused), console=console)
    return 1 if result.ungradable else 0


def _shard_done(console: Console, result: ShardResult) -> int:
    bad = [r for r in result.rows if r.ungradable]  # told by the store, no brief parsed
    console.print(f"shard {result.shard}: {len(result.rows)} of {result.class_size} submission(s) "
                  f"({result.graded} graded now); {len(bad)} could not be graded.", soft_wrap=True)
    console.print(f"When every shard is done: autograder merge SHARD_OUT... --out DIR "
                  f"(this one is {shown(str(result.out_dir))})", soft_wrap=True)
    return 1 if bad else 0


def _check_sandbox() -> None:
    """The sandbox level AUTOGRADER_SANDBOX insists on, if any, can be had here (its probe, once):
    else SandboxUnavailable (a ConfigError) before anything is graded. Unset, the best level
    there is will do, which never fails: nothing to check."""
    from autograder.runner import levels

    if os.environ.get(levels.ENV, "").strip():
        levels.current()


def _spawn_without_the_script() -> None:
    """Run as the `autograder` console script, the grading process's __main__ is that file, which each spawned
    worker would run again to rebuild __main__ (importing the CLI: ~30 ms of CPU a worker, for nothing: the
    workers need none of it). Named as a package's __main__, as under `python -m autograder`, it is left
    alone by multiprocessing's spawn."""
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__spec__", None) is None \
            and Path(getattr(main, "__file__", "") or "").name in ("autograder", "autograder.exe"):
        main.__spec__ = importlib.machinery.ModuleSpec("autograder.__main__", None)


def print_class_summary(result, *, graded_now: tuple[int, int] | None, console: Console | None = None) -> None:
    """The class summary of a batch (graded_now: how many this run graded and reused) or a merge."""
    from autograder.report.summary import forensics_intro, sandbox_levels, who_rows  # once graded: not before

    console = console or Console(highlight=False)
    s = result.written.summary
    table = Table(title="Class summary", show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("submissions", f"{s['submissions']}" + (
        f" ({graded_now[0]} graded now, {graded_now[1]} from before)" if graded_now else ""))
    table.add_row("graded", str(s["graded"]))
    table.add_row("could not be graded", f"[red]{s['ungradable']}[/red]" if s["ungradable"] else "0")
    table.add_row("mean score", f"{show(s['mean'])} / {show(s['max_score'])}" if s["mean"] is not None else "–")
    table.add_row("sandbox", shown(sandbox_levels(s)))
    console.print(table)
    for note in s["sandbox_notes"]:
        console.print(f"[dim]note: {shown(note)}[/dim]", soft_wrap=True)
    tasks = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name in ("task", "pass rate", "passed"):
        tasks.add_column(name, justify="left" if name == "task" else "right")
    for t in s["tasks"]:
        tasks.add_row(t["id"], f"{t['pass_rate']:.0%}", f"{t['passed']}/{t.get('of', s['submissions'])}")
    console.print(tasks)
    if s["diagnoses"]:  # what to reteach: the classic mistakes named, most frequent first
        console.print("\n[bold]What to reteach[/bold] (the classic mistakes named; who made them: summary.md)")
        for row in s["diagnoses"][:SHOW_RETEACH]:
            console.print(f"  {shown(row['says'])}", soft_wrap=True)
        if len(s["diagnoses"]) > SHOW_RETEACH:
            console.print(f"  … and {len(s['diagnoses']) - SHOW_RETEACH} more in summary.md")
    for kind, title in who_rows(s):  # who, kind by kind (those not graded: one by one below, with why)
        if kind != "ungradable":
            names = [row["submission"] for row in s["who"][kind]]
            more = f" … and {len(names) - SHOW_ERRORS} more" if len(names) > SHOW_ERRORS else ""
            console.print(f"[yellow]{title}[/yellow]: {shown(', '.join(names[:SHOW_ERRORS]))}{more} "
                          "(why: summary.md, the gradebook's error column)", soft_wrap=True)
    if "forensics" in s:  # a class graded with variants: whose variant each submission solves
        flags = s["forensics"]["flags"]
        console.print(f"\n[bold]Forensics[/bold]: {shown(forensics_intro(s))}", soft_wrap=True)
        for flag in flags[:SHOW_RETEACH]:
            console.print(f"  {shown(flag['says'])}", soft_wrap=True)
        if flags:
            console.print(f"  (the numbers of each{'' if len(flags) <= SHOW_RETEACH else ', and the rest'}: "
                          f"{shown(str(result.out_dir / FORENSICS))})", soft_wrap=True)
    _roster_lines(console, s.get("roster"), getattr(result, "kept", 0))
    for row in result.ungradable[:SHOW_ERRORS]:
        console.print(f"[red]could not grade[/red] {shown(row.student)}: {shown(row.report.error or '')}")
    if len(result.ungradable) > SHOW_ERRORS:
        console.print(f"… and {len(result.ungradable) - SHOW_ERRORS} more: see the error column of the gradebook")
    if result.retryable:
        console.print(f"{len(result.retryable)} of them crashed the grading itself: "
                      "run the same command again to retry them.")
    w = result.written
    if w.removed:
        gone = sorted({Path(rel).stem for rel in w.removed})
        console.print(shown(f"Removed the reports and feedback pages of {len(gone)} student(s) graded here before "
                             f"and not in this run: {', '.join(gone[:SHOW_ERRORS])}"
                             + (" …" if len(gone) > SHOW_ERRORS else "")), soft_wrap=True)
    if w.kept:
        console.print(shown(f"note: kept {len(w.kept)} file(s) in reports/ and feedback/ that are of no student in "
                             f"this run and that the kit did not write as they are: {', '.join(w.kept[:SHOW_ERRORS])}"
                             + (" …" if len(w.kept) > SHOW_ERRORS else "")), soft_wrap=True)
    if getattr(result, "changed", None) is not None:
        console.print(shown(f"The regrade changed {result.changed} score(s) of this folder's last class: "
                             f"{result.out_dir / CHANGES_MD} says whose, the tasks that moved, and why"), soft_wrap=True)
    for line in (f"\nWrote gradebook to {w.gradebook}",
                 f"Wrote reports to {w.reports}{os.sep} and feedback pages to {w.feedback}{os.sep}",
                 f"Wrote class summary to {w.summary_html}, {w.summary_md.name}, {w.summary_json.name} and "
                 f"{w.histogram.name}"):
        console.print(shown(line), soft_wrap=True)


def _roster_lines(console: Console, roster: dict | None, kept: int) -> None:
    """Who the roster names: not on it, on it with no submission; and the rows a partial run kept."""
    if kept:
        console.print(f"kept the rows of {kept} student(s) of this folder's class not in this run, as they were "
                      "(a run of some of a class updates theirs in place)", soft_wrap=True)
    if not roster:
        return
    if roster["unrostered"]:
        names = [f"{u['submission']}" + (f" (id {u['id']})" if u["id"] != u["submission"] else "")
                 for u in roster["unrostered"]]
        how = "graded, and named" if roster["unrostered_graded"] else "not graded: the variant its id draws was handed to no one"
        more = f" … and {len(names) - SHOW_ERRORS} more" if len(names) > SHOW_ERRORS else ""
        console.print(f"[yellow]not on the roster[/yellow] ({len(names)}; {how}): "
                      f"{shown(', '.join(names[:SHOW_ERRORS]))}{more}", soft_wrap=True)
    if roster["missing"]:
        names = roster["missing"]
        more = f" … and {len(names) - SHOW_ERRORS} more" if len(names) > SHOW_ERRORS else ""
        console.print(f"[yellow]no submission[/yellow] ({len(names)} of {roster['students']} on the roster): "
                      f"{shown(', '.join(names[:SHOW_ERRORS]))}{more} (a row each in the gradebook, status missing)",
                      soft_wrap=True)


def _usage(errors: Console, message: str) -> int:
    errors.print(f"autograder: {shown(message)}", soft_wrap=True)
    return 2
