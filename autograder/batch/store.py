"""The gradebook store: one SQLite file that makes a batch run resumable.

A row per (student, GradeKey) holds the report as JSON (json_report.report_dict)
and what the gradebook needs besides (late, source). Only the parent process
writes, and it commits after every submission (WAL mode), so a crash or Ctrl-C
loses at most the submissions in flight. `final` is 0 for a row the batch wrote
because grading itself crashed (an exception, a dead worker): the next run
retries those.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from autograder.batch.keys import GradeKey
from autograder.report.json_report import report_dict
from autograder.report.model import CaseResult, Report, TaskResult

SCHEMA = 1
_TABLE = """
CREATE TABLE IF NOT EXISTS grades (
    student TEXT NOT NULL, content TEXT NOT NULL, kit_version TEXT NOT NULL,
    hidden_seed TEXT NOT NULL, rubric TEXT NOT NULL,
    final INTEGER NOT NULL, late INTEGER, source TEXT NOT NULL, original TEXT NOT NULL,
    report TEXT NOT NULL, graded_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (student, content, kit_version, hidden_seed, rubric))
"""
_KEY = "student = ? AND content = ? AND kit_version = ? AND hidden_seed = ? AND rubric = ?"


class StoreError(Exception):
    """A gradebook file that can't be used: one line saying what to do."""


@dataclass(frozen=True)
class BatchRow:
    """One submission's line in the gradebook: its report and where it came from."""
    student: str
    report: Report
    late: bool | None = None
    source: str = ""
    original: str = ""
    final: bool = True      # False: the grading crashed; the next run retries it


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA):
                raise StoreError(f"{self.path} was written by another version of the kit; "
                                 "grade into a new --out folder")
            self._db.execute(_TABLE)
            self._db.execute(f"PRAGMA user_version = {SCHEMA}")
            self._db.commit()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path} is not a usable gradebook ({err}); "
                             "move it away or grade into a new --out folder") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def get(self, student: str, key: GradeKey) -> BatchRow | None:
        found = self._db.execute(
            f"SELECT report, late, source, original, final FROM grades WHERE {_KEY}", (student, *_fields(key))
        ).fetchone()
        if found is None:
            return None
        report, late, source, original, final = found
        return BatchRow(student, report_from_dict(json.loads(report)),
                        None if late is None else bool(late), source, original, bool(final))

    def put(self, row: BatchRow, key: GradeKey) -> None:
        """Store (or replace) a submission's grade, committed at once."""
        late = None if row.late is None else int(row.late)
        report = json.dumps(report_dict(row.report), ensure_ascii=False)
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO grades (student, content, kit_version, hidden_seed, rubric, "
                "final, late, source, original, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.student, *_fields(key), int(row.final), late, row.source, row.original, report),
            )

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM grades").fetchone()[0]


def _fields(key: GradeKey) -> tuple[str, str, str, str]:
    return key.content, key.kit_version, key.hidden_seed, key.rubric


def report_from_dict(data: dict) -> Report:
    """The Report back from its JSON form: report_dict(report_from_dict(d)) == d."""
    tasks = tuple(
        TaskResult(t["id"], t["title"], t["score"], t["max_score"], tuple(
            CaseResult(c["id"], c["status"], c["visibility"], c["message"], c["title"], tuple(c["details"]))
            for c in t["cases"]
        ))
        for t in data["tasks"]
    )
    return Report(data["submission"], data["score"], data["max_score"], tasks, data["error"],
                  data["sandbox"], tuple(data["notes"]), data["kit_version"])
