"""The gradebook store: one SQLite file that makes a batch run resumable.

A row per (student, GradeKey) holds the report as JSON (json_report.report_dict, as json_text writes it)
and what the gradebook needs besides (late, source). Only the parent process
writes, and it commits after every submission (WAL mode), so a crash or Ctrl-C
loses at most the submissions in flight. (synchronous=NORMAL: a commit survives
the process dying at once; only a power cut may lose the last few, which the next
run grades again.) `final` is 0 for a row the batch wrote because grading itself
crashed (an exception, a dead worker): the next run retries those.

A second table, `outputs`, remembers each output file the batch wrote (outputs.py):
a digest of what it was made from and the file's stat after writing, so a resumed run
rewrites only what changed or what someone else touched. A third, `meta`, remembers what a later run
into the folder needs: the roster, and the last class (its students and their grades' keys, the rubric), whose
rows are in a table of their own (store_last_class.py).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from autograder.batch.brief import BRIEF_START, brief_json
from autograder.batch.report_json import report_from_dict
from autograder.batch.row import BatchRow
from autograder.batch.store_last_class import LastClassTable
from autograder.batch.store_outputs import OutputsTable
from autograder.batch.keys import GradeKey
from autograder.errors import UserError
from autograder.report.json_text import compact_json

SCHEMA = 1
_TABLE = """
CREATE TABLE IF NOT EXISTS grades (
    student TEXT NOT NULL, content TEXT NOT NULL, kit_version TEXT NOT NULL,
    hidden_seed TEXT NOT NULL, rubric TEXT NOT NULL,
    final INTEGER NOT NULL, late INTEGER, source TEXT NOT NULL, original TEXT NOT NULL,
    digest TEXT, brief TEXT,
    report TEXT NOT NULL, graded_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (student, content, kit_version, hidden_seed, rubric))
"""
_OUTPUTS = """
CREATE TABLE IF NOT EXISTS outputs (path TEXT PRIMARY KEY, inputs TEXT NOT NULL, stat TEXT NOT NULL)
"""
_CONTENTS = """
CREATE TABLE IF NOT EXISTS contents (path TEXT PRIMARY KEY, stat TEXT NOT NULL, digest TEXT NOT NULL)
"""
_META = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
"""
_WALKS = itertools.count()  # names of the temporary tables rows_of walks
_KEY = "student = ? AND content = ? AND kit_version = ? AND hidden_seed = ? AND rubric = ?"
_SAME_KEY = ("g.student = w.student AND g.content = w.content AND g.kit_version = w.kit_version AND "
             "g.hidden_seed = w.hidden_seed AND g.rubric = w.rubric")  # a grade (g) under a wanted key (w)


class StoreError(UserError):
    """A gradebook file that can't be used: one line saying what to do."""


class Store(OutputsTable, LastClassTable):
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA):
                raise StoreError(f"{self.path} was written by another version of the kit; "
                                 "grade into a new --out folder")
            self._db.execute(_TABLE)
            # what a rerun reads first, to know what to grade (finals): the key columns, in an index of their own,
            # not from each row's page (a row holds its report: a page or more each, perhaps long out of the cache)
            self._db.execute("CREATE INDEX IF NOT EXISTS grades_final ON grades "
                             "(final, student, content, kit_version, hidden_seed, rubric)")
            self._db.execute(_OUTPUTS)
            self._db.execute(_META)
            self._db.execute(_CONTENTS)
            columns = {c[1] for c in self._db.execute("PRAGMA table_info(grades)")}
            # a gradebook of an earlier kit: its rows' briefs are made when read. (A new one has them before the
            # report, so a rerun reads every brief without walking each report's overflow pages: 3x quicker)
            for column in ("brief", "digest"):
                if column not in columns:
                    self._db.execute(f"ALTER TABLE grades ADD COLUMN {column} TEXT")
            self._db.execute(f"PRAGMA user_version = {SCHEMA}")
            self._db.commit()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path} is not a usable gradebook ({err}); "
                             "move it away or grade into a new --out folder") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    closed = False
    _briefs_checked = False  # every row has a brief of this format (rows_of): each one put since has one

    def close(self) -> None:
        self._db.close()
        self.closed = True

    def get(self, student: str, key: GradeKey) -> BatchRow | None:
        found = self._db.execute(
            f"SELECT report, late, source, original, final FROM grades WHERE {_KEY}", (student, *_fields(key))
        ).fetchone()
        if found is None:
            return None
        report, late, source, original, final = found
        return BatchRow(student, report_from_dict(json.loads(report)),
                        None if late is None else bool(late), source, original, bool(final), _digest(report))

    def briefs(self, keys: Mapping[str, GradeKey]) -> dict[str, BatchRow]:
        """The stored rows of those that have one under their key, with their reports' briefs (brief.py), read in one pass: the reports themselves are not
        read, but for a row stored by an earlier kit without a brief (made now, and kept)."""
        return {row.student: row for row in self.rows_of(keys.items()) if row is not None}

    def rows_of(self, wanted: Iterable[tuple[str, GradeKey]]) -> Iterator[BatchRow | None]:
        """The row of each (student, key), in the order given, with its brief's text (row.py), or None where the
        store has none: one pass joining a temporary table of the keys (on disk), so none is held here."""
        joined = self._joined(wanted, "")
        try:
            for _, row in joined:
                yield row
        finally:
            joined.close()  # its temporary table dropped now, whoever stops the walk

    def flagged_of(self, wanted: Iterable[tuple[str, GradeKey]]) -> Iterator[tuple[str, BatchRow | None]]:
        """(student, row) of each (student, key) whose row could not be graded or is not final, and (student, None)
        of each the store has none for, in the order given: one pass as rows_of's, the others not read out."""
        return self._joined(wanted, "WHERE g.brief IS NULL OR g.final = 0 OR instr(g.brief, '\"error\":null') = 0")

    def _joined(self, wanted: Iterable[tuple[str, GradeKey]], where: str) -> Iterator[tuple[str, BatchRow | None]]:
        table = f"wanted_{next(_WALKS)}"
        with self._db:
            self._db.execute(f"CREATE TEMP TABLE {table} (pos INTEGER PRIMARY KEY, student TEXT NOT NULL, "
                             "content TEXT, kit_version TEXT, hidden_seed TEXT, rubric TEXT)")
            self._db.executemany(f"INSERT INTO {table} (student, content, kit_version, hidden_seed, rubric) "
                                 "VALUES (?, ?, ?, ?, ?)", ((student, *_fields(key)) for student, key in wanted))
        join = f"FROM {table} w LEFT JOIN grades g ON {_SAME_KEY}"
        cursor = self._db.cursor()
        try:
            if not self._briefs_checked:  # rows stored by an earlier kit, without a brief of this format: made now, kept
                stale = cursor.execute("SELECT student, content, kit_version, hidden_seed, rubric FROM grades WHERE "
                                       "digest IS NULL OR digest = '' OR brief IS NULL OR "
                                       f"substr(brief, 1, {len(BRIEF_START)}) != ?", (BRIEF_START,)).fetchall()
                for student, *key in stale:
                    self._keep_brief(student, GradeKey(*key))
                self._briefs_checked = True
            # a brief's one unescaped '"error":' is its own (brief_json: a task is a text of its own, its quotes escaped)
            cursor.execute(f"SELECT w.student, g.brief, g.digest, g.late, g.source, g.original, g.final, "
                           f"instr(g.brief, '\"error\":null') = 0 {join} {where} ORDER BY w.pos")
            for student, brief, digest, late, source, original, final, failed in cursor:
                yield student, None if brief is None else BatchRow(
                    student, brief, None if late is None else bool(late), source, original, bool(final), digest,
                    brief=True, failed=bool(failed))  # its text: read when needed
        finally:
            cursor.close()
            if not self.closed:
                self._db.execute(f"DROP TABLE IF EXISTS temp.{table}")

    def _keep_brief(self, student: str, key: GradeKey) -> None:
        row = self.get(student, key)
        with self._db:
            self._db.execute(f"UPDATE grades SET brief = ?, digest = ? WHERE {_KEY}",
                             (brief_json(row.report), row.digest, student, *_fields(key)))

    def finals(self, keys: Mapping[str, GradeKey]) -> set[str]:
        """The students whose row under their key is final (a grade to keep), from the key columns alone."""
        wanted = {student: _fields(key) for student, key in keys.items()}
        return {student for student, *key in self._db.execute(
                "SELECT student, content, kit_version, hidden_seed, rubric FROM grades WHERE final = 1")
                if wanted.get(student) == tuple(key)}

    def put(self, row: BatchRow, key: GradeKey, report_json: str | None = None) -> BatchRow:
        """Store (or replace) a submission's grade, committed at once; returns the row with its digest.
        report_json: the report as another store holds it (a shard's), kept as it is."""
        late = None if row.late is None else int(row.late)
        report = report_json or compact_json(row.report)  # json.dumps(report_dict(...)), its cases' texts made once a class
        digest = _digest(report)
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO grades (student, content, kit_version, hidden_seed, rubric, "
                "final, late, source, original, report, brief, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.student, *_fields(key), int(row.final), late, row.source, row.original, report,
                 brief_json(row.report), digest),
            )
        return replace(row, digest=digest)

    def copy_rows(self, source: Store, wanted: Iterable[tuple[str, GradeKey]]) -> list[str]:
        """Copy each (student, key)'s row from another store (a shard's) as it is there, inside SQLite (no row comes
        into Python); returns the students it has no row for, in the order given."""
        columns = "student, content, kit_version, hidden_seed, rubric, final, late, source, original, report, brief, digest"
        self._briefs_checked = False  # rows as another store holds them
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS copied (student TEXT PRIMARY KEY, content TEXT, "
                         "kit_version TEXT, hidden_seed TEXT, rubric TEXT)")
        self._db.commit()  # what is pending (the record of files written) first: DETACH needs no transaction open
        self._db.execute("ATTACH DATABASE ? AS shard", (str(source.path),))
        try:
            with self._db:
                self._db.execute("DELETE FROM copied")
                self._db.executemany("INSERT INTO copied VALUES (?, ?, ?, ?, ?)",
                                     ((student, *_fields(key)) for student, key in wanted))
                self._db.execute(f"INSERT OR REPLACE INTO main.grades ({columns}) SELECT "
                                 f"{', '.join('g.' + c.strip() for c in columns.split(','))} FROM copied w JOIN "
                                 f"shard.grades g ON {_SAME_KEY}")
            return [s for (s,) in self._db.execute(
                f"SELECT w.student FROM copied w WHERE NOT EXISTS (SELECT 1 FROM shard.grades g WHERE {_SAME_KEY}) "
                "ORDER BY w.rowid")]
        finally:
            self._db.execute("DETACH DATABASE shard")

    def keep_previous(self, keys: Mapping[str, GradeKey]) -> set[str]:
        """Before a --regrade replaces them: these students' rows as they are now, kept aside (a temporary table,
        on disk, not in memory) for previous(); returns the students that had one."""
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS previous (student TEXT PRIMARY KEY, report TEXT NOT NULL, "
                         "late INTEGER, source TEXT NOT NULL, original TEXT NOT NULL, final INTEGER NOT NULL)")
        with self._db:
            for student, key in keys.items():
                self._db.execute("INSERT OR REPLACE INTO previous SELECT student, report, late, source, original, final "
                                 f"FROM grades WHERE {_KEY}", (student, *_fields(key)))
        return {s for (s,) in self._db.execute("SELECT student FROM previous")}

    def previous(self, student: str) -> BatchRow | None:
        """A student's row as keep_previous kept it."""
        found = self._db.execute("SELECT report, late, source, original, final FROM previous WHERE student = ?",
                                 (student,)).fetchone()
        if found is None:
            return None
        report, late, source, original, final = found
        return BatchRow(student, report_from_dict(json.loads(report)), None if late is None else bool(late), source,
                        original, bool(final), _digest(report))

    def content(self, path: str) -> tuple[str, str] | None:
        """A submission file's (stat, content digest) as last remembered (known_contents.py)."""
        found = self._db.execute("SELECT stat, digest FROM contents WHERE path = ?", (path,)).fetchone()
        return None if found is None else (found[0], found[1])

    def remember_contents(self, rows: list[tuple[str, str, str]]) -> None:
        """(path, stat, digest) of each submission file of this run: the only ones remembered after it."""
        with self._db:
            self._db.execute("DELETE FROM contents")
            self._db.executemany("INSERT OR REPLACE INTO contents (path, stat, digest) VALUES (?, ?, ?)", rows)

    def meta(self, key: str) -> str | None:
        """What the output folder remembers under key (the roster, the last class: batch/class_list.py,
        batch/regrade.py), or None."""
        found = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return found[0] if found else None

    def set_meta(self, key: str, value: str) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM grades").fetchone()[0]


def _digest(report_json: str) -> str:
    return hashlib.sha256(report_json.encode("utf-8", "surrogatepass")).hexdigest()


def _fields(key: GradeKey) -> tuple[str, str, str, str]:
    return key.content, key.kit_version, key.hidden_seed, key.rubric
