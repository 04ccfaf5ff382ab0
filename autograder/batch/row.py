"""A class's row: one submission's report and where it came from.

A row read from the store for a class's files holds its report's brief (brief.py) as the store's text until
something reads `report`: a rerun whose class files are up to date reads none (their digests decide), and
holds each as read, ~1 KB a student; the first read parses it (once).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from autograder.batch.brief import brief_from_json
from autograder.report.model import Report


@dataclass(frozen=True)
class BatchRow:
    """One submission's line in the gradebook: its report and where it came from."""
    student: str
    report: Report
    late: bool | None = None
    source: str = ""
    original: str = ""
    final: bool = True      # False: the grading crashed; the next run retries it
    # sha256 of the report as the store holds it ("" for a row not from the store): what its
    # output files are made from, so a resumed run can tell they are up to date without rendering
    digest: str = field(default="", compare=False, repr=False)
    # True: `report` is the report's brief (brief.py), what the class's files need; the store has the full one
    brief: bool = field(default=False, compare=False, repr=False)
    # whether the report says it could not be graded (its error), where the store told it without the report
    failed: bool | None = field(default=None, compare=False, repr=False)

    @property
    def ungradable(self) -> bool:
        return self.report.error is not None if self.failed is None else self.failed


class _Report:
    """BatchRow.report: a Report, or a brief's stored text (a str) made a Report when first read."""

    def __get__(self, row, owner=None):
        if row is None:
            return self
        value = row.__dict__["_report"]
        if isinstance(value, str):
            value = row.__dict__["_report"] = brief_from_json(value)
        return value

    def __set__(self, row, value) -> None:
        row.__dict__["_report"] = value


BatchRow.report = _Report()  # after @dataclass, which made `report` the second argument of __init__
