"""The class gradebook as CSV: one row per submission, one score column per task.

Written with the csv module (every quote, comma and newline quoted properly),
in UTF-8. A text cell that a spreadsheet would run as a formula (=, +, -, @ ...) gets a
leading apostrophe: error messages can carry text a student wrote.
"""
from __future__ import annotations

import csv
import io
from typing import Iterable, Protocol, Sequence

from autograder.report.model import Report
from autograder.report.numbers import show
from autograder.tasks import TASK_IDS

FIXED_BEFORE = ("student", "score", "max_score")
FIXED_AFTER = ("status", "error", "late", "source", "sandbox")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class GradebookRow(Protocol):
    student: str
    report: Report
    late: bool | None
    source: str


def task_columns(reports: Iterable[Report]) -> list[str]:
    """The tasks any report graded, in the kit's task order."""
    seen = {t.id for r in reports for t in r.tasks}
    return [t for t in TASK_IDS if t in seen] + sorted(seen - set(TASK_IDS))


def render_gradebook(rows: Sequence[GradebookRow]) -> str:
    tasks = task_columns(row.report for row in rows)
    # a class graded with [variants]: which variant each row was graded against, last
    variants = any(row.report.variant is not None for row in rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*FIXED_BEFORE, *tasks, *FIXED_AFTER, *(["variant"] if variants else [])])
    for row in rows:
        variant = row.report.variant
        writer.writerow(gradebook_cells(row, tasks) + ([safe_text(variant.label if variant else "")] if variants else []))
    return out.getvalue()


def gradebook_cells(row: GradebookRow, tasks: Sequence[str]) -> list[str]:
    report = row.report
    scores = {t.id: t.score for t in report.tasks}
    return [
        safe_text(row.student),
        number(report.score),
        number(report.max_score),
        *(number(scores[t]) if t in scores else "" for t in tasks),
        "error" if report.error else "graded",
        safe_text(report.error or ""),
        "" if row.late is None else ("yes" if row.late else "no"),
        safe_text(row.source),
        safe_text(report.sandbox),
    ]


def number(x: float) -> str:
    """12.0 -> "12", 2.5 -> "2.5", 3.3333333 -> "3.33": what a gradebook shows (numbers.show)."""
    return show(x)


def safe_text(value: str) -> str:
    """A cell a spreadsheet shows as text: a leading apostrophe on what would start a formula."""
    value = str(value)
    return "'" + value if value.startswith(_FORMULA_START) else value
