"""What went wrong in grading a submission, by kind, one line each: what an instructor looks into.

    could not be graded   the report's error: refused (it imports torch, say), unreadable, or the grading crashed
    did not import        a module of the student's did not import (a SyntaxError: it did not compile)
    timed out             a case ran too long (or the submission's time budget ran out)
    raised an error       a case raised (or the code died) in a module that imported

A case that errs because its module did not import is told once, under "did not import", not
again under "raised an error". The gradebook's `error` column carries these lines (`error_line`),
and the class summary lists who, kind by kind (`who`).
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Sequence

from autograder.report.model import Report
from autograder.tasks import TASK_MODULE

KINDS = {"ungradable": "could not be graded", "import": "did not import", "timeout": "timed out",
         "error": "raised an error"}
TASKS_LISTED = 3


@dataclass(frozen=True)
class Trouble:
    kind: str      # a key of KINDS
    reason: str    # one line


def troubles(report: Report) -> tuple[Trouble, ...]:
    if report.error:
        return (Trouble("ungradable", report.error),)
    broken = {module for module, _ in report.import_errors}
    found = [Trouble("import", why) for why in dict.fromkeys(why for _, why in report.import_errors)]
    # each task's statuses, gathered in C: a class's summary, gradebook and page ask this of every report
    statuses = [(t, set(map(_STATUS, t.cases))) for t in report.tasks if TASK_MODULE.get(t.id) not in broken]
    for status in ("timeout", "error"):
        tasks = [t for t, seen in statuses if status in seen]
        if tasks:
            found.append(Trouble(status, _in_tasks(status, tasks)))
    return tuple(found)


_STATUS = attrgetter("status")


def error_line(report: Report) -> str:
    """The gradebook's error cell: every trouble, "; " between them ("" when none)."""
    return "; ".join(t.reason if t.kind in ("ungradable", "import") else f"{KINDS[t.kind]} {t.reason}"
                     for t in troubles(report))


def who(reports: Sequence[Report]) -> dict[str, list[dict]]:
    """kind -> [{submission, reason}] for each submission with that trouble (summary.json's "who")."""
    found: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    for r in reports:
        for t in troubles(r):
            found[t.kind].append({"submission": r.submission, "reason": t.reason})
    return {kind: sorted(rows, key=lambda row: row["submission"]) for kind, rows in found.items()}


def _in_tasks(status: str, tasks) -> str:
    """'in backward (2 cases), mul (1 case)', then the first public case's own message, if any."""
    named = [f"{t.id} ({n} case{'' if n == 1 else 's'})" for t in tasks[:TASKS_LISTED]
             for n in [t.count(status)]]
    more = f" and {len(tasks) - TASKS_LISTED} more task(s)" if len(tasks) > TASKS_LISTED else ""
    first = next((c.message for t in tasks for c in t.cases if c.status == status and c.visibility == "public"
                  and c.message), "")
    return f"in {', '.join(named)}{more}" + (f": {first}" if first else "")
