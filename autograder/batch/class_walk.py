"""What outputs.py takes of a class's rows as it walks them, a row at a time, so that none is held.

ClassInputs: the digest of what the class's files are made from (outputs.py keeps it in the record, and a rerun
whose digest matches makes none of them again). WalkedRows: the rows as each class export walks them
(exports.ClassRows), with the names of the students' own files and who a report's submission is.
"""
from __future__ import annotations

import hashlib
import json
from typing import Iterable, Iterator, Mapping, Sequence

from autograder.batch.ids import file_names
from autograder.batch.row import BatchRow


class ClassInputs:
    """A digest of everything the class's files are made from: each row (its report by its digest), the intake,
    the roster's view; taken a row at a time (of json.dumps's text of the whole list, made piece by piece)."""

    def __init__(self):
        self.sha = hashlib.sha256(b"[[")
        self.count = 0
        self.whole = True  # every row from the store (with a digest): else the files are made again

    def add(self, r: BatchRow) -> None:
        self.whole = self.whole and bool(r.digest)
        piece = json.dumps([r.student, r.digest, r.late, r.source, r.original, r.final])
        self.sha.update((", " if self.count else "").encode() + piece.encode("utf-8", "surrogatepass"))
        self.count += 1

    def digest(self, intake: Sequence[str], roster) -> str | None:
        if not self.whole:
            return None
        rest = json.dumps([list(intake), roster.summary() if roster is not None else None])[1:]
        self.sha.update(b"], " + rest.encode("utf-8", "surrogatepass"))
        return self.sha.hexdigest()


class WalkedRows:
    """The class's rows as a class export walks them (exports.ClassRows): each walk a pass over the store."""

    def __init__(self, rows: Iterable[BatchRow], names: Mapping[str, str]):
        self.rows, self.names = rows, names
        self.aliases: dict[str, str] = {}  # as {s.submission: s for s in students} would keep (the last one)

    def alias(self, row: BatchRow) -> None:
        submission = row.report.submission
        if submission != row.student or submission in self.aliases:
            self.aliases[submission] = row.student

    def name(self, student: str) -> str:
        return self.names.get(student) or file_names([student])[0]

    def __iter__(self) -> Iterator[BatchRow]:
        return iter(self.rows)
