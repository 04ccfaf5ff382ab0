"""The class gradebook as CSV: one row per submission, one score column per task.

A class graded with a roster: an unrostered submission's status is `unrostered`, and each rostered student
with no submission has a row (status `missing`, no score). The last column names each submission as the download did (a file or folder name): every id
the kit made from a name (batch/ids.py) is listed beside its original.
Written with the csv module (every quote, comma and newline quoted properly),
in UTF-8. A text cell that a spreadsheet would run as a formula (=, +, -, @ ...) gets a
leading apostrophe: error messages can carry text a student wrote. The guard is reversible
(a cell that begins with an apostrophe gets one more), so `unguard` gives back every id as it was:
the LMS commands read the student ids back from this file (lms/graded.py).
"""
from __future__ import annotations

import csv
import io
from typing import Iterable, Iterator, Protocol, Sequence

from autograder.report.inert import inert
from autograder.report.model import Report
from autograder.report.numbers import show
from autograder.report.trouble import error_line
from autograder.tasks import TASK_IDS

FIXED_BEFORE = ("student", "score", "max_score")
FIXED_AFTER = ("status", "error", "late", "source", "sandbox", "original")  # original: its name(s) in the download
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"


class GradebookRow(Protocol):
    student: str
    report: Report
    late: bool | None
    source: str
    original: str         # what the submission was called where it came from: the id made from it may differ


def task_columns(reports: Iterable[Report]) -> list[str]:
    """The tasks any report graded, in the kit's task order."""
    seen = {t.id for r in reports for t in r.tasks}
    return [t for t in TASK_IDS if t in seen] + sorted(seen - set(TASK_IDS))


def render_gradebook(rows: Sequence[GradebookRow], roster: dict | None = None) -> str:
    """roster: the summary's "roster" (a class graded with one): its unrostered rows say so in their status,
    and each missing student gets a row of their own (status missing, no score)."""
    tasks = task_columns(row.report for row in rows)
    # a class graded with [variants]: which variant each row was graded against, last
    variants = any(row.report.variant is not None for row in rows)
    return "".join(gradebook_lines(rows, tasks, variants, roster))


def gradebook_lines(rows: Iterable[GradebookRow], tasks: Sequence[str], variants: bool,
                    roster: dict | None = None) -> Iterator[str]:
    """render_gradebook's text a line at a time, the rows walked once (a class's, as they come from the store):
    tasks, its task columns; variants, whether a variant column ends each row."""
    unrostered = {u["submission"] for u in roster["unrostered"]} if roster else set()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")

    def line(cells: list[str]) -> str:
        writer.writerow(cells)
        text = out.getvalue()
        out.seek(0)
        out.truncate()
        return text

    yield line([*FIXED_BEFORE, *tasks, *FIXED_AFTER, *(["variant"] if variants else [])])
    for row in rows:
        variant = row.report.variant
        cells = gradebook_cells(row, tasks)
        if row.student in unrostered:
            cells[len(FIXED_BEFORE) + len(tasks)] = "unrostered"
        yield line(cells + ([guard(variant.label if variant else "")] if variants else []))
    for student in roster["missing"] if roster else ():
        cells = [guard(student), "", "", *("" for _ in tasks), "missing", "no submission", "", "roster", "", ""]
        yield line(cells + ([guard(roster["missing_variants"].get(student, ""))] if variants else []))


def gradebook_cells(row: GradebookRow, tasks: Sequence[str]) -> list[str]:
    report = row.report
    scores = {t.id: t.score for t in report.tasks}
    return [
        guard(row.student),
        number(report.score),
        number(report.max_score),
        *(number(scores[t]) if t in scores else "" for t in tasks),
        "error" if report.error else "graded",
        guard(error_line(report)),
        "" if row.late is None else ("yes" if row.late else "no"),
        guard(row.source),
        guard(report.sandbox),
        guard(row.original),
    ]


def number(x: float) -> str:
    """12.0 -> "12", 2.5 -> "2.5", 3.3333333 -> "3.33": what a gradebook shows (numbers.show)."""
    return show(x)


def guard(value: str) -> str:
    """value as a cell no spreadsheet runs as a formula and with no character that acts (inert.py);
    unguard(guard(v)) == v for every v without such characters (every student id: batch/ids.py)."""
    value = inert(value)
    return GUARD + value if value.startswith((*_FORMULA_START, GUARD)) else value


def unguard(cell: str) -> str:
    """The value a guarded cell was made from (one leading apostrophe is the guard's)."""
    return cell.removeprefix(GUARD)
