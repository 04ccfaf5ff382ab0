"""What the batch's output files were made from: per file (a path under the out folder), the digest of its
inputs and its stat when written (outputs.py decides from it whether a file is up to date).

Two kinds, one interface. A StoreRecord reads and writes the store's `outputs` table a file at a time, so
the grading process holds none of it (a class of 20,000 has 40,000 files): what a run wrote or found up to
date is marked in a temporary table, and keep() then drops the entries of files it did not (the students
no longer in the class). A MemoryRecord is a dict, for files written without a store (write_outputs).
"""
from __future__ import annotations

from typing import Iterable

from autograder.batch.store import Store

Entry = tuple[str, str]  # (inputs digest, stat)


class MemoryRecord:
    def __init__(self, known: dict[str, Entry] | None = None):
        self.known = dict(known or {})    # the record from the last run
        self.now: dict[str, Entry] = {}   # the record after this run
        self.run: set[str] = set()        # every file written or found up to date by this run

    def get(self, rel: str) -> Entry | None:
        """The file's entry: as this run wrote it, else as the last run left it."""
        return self.now.get(rel) or self.known.get(rel)

    def put(self, rel: str, entry: Entry) -> None:
        self.now[rel] = entry

    def drop(self, rel: str) -> None:
        self.now.pop(rel, None)

    def keep_last(self, rel: str) -> None:
        """The file is up to date as the last run recorded it: that entry stays."""
        found = self.get(rel)
        if found is not None:
            self.now[rel] = found

    def mark(self, rel: str) -> None:
        self.run.add(rel)

    def marked(self, rel: str) -> bool:
        return rel in self.run

    def keep(self) -> dict[str, Entry]:
        """The record after this run."""
        return self.now


class StoreRecord:
    def __init__(self, store: Store):
        self.store = store
        store.start_output_run()

    def get(self, rel: str) -> Entry | None:
        return self.store.output(rel)

    def put(self, rel: str, entry: Entry) -> None:
        self.store.record_output(rel, *entry)

    def drop(self, rel: str) -> None:
        self.store.forget_output(rel)

    def keep_last(self, rel: str) -> None:
        pass  # the table has it

    def mark(self, rel: str) -> None:
        self.store.mark_output(rel)

    def marked(self, rel: str) -> bool:
        return self.store.output_marked(rel)

    def keep(self) -> None:
        """Drop the entries of the files this run neither wrote nor found up to date; committed."""
        self.store.keep_marked_outputs()


def record_of(known: Store | dict[str, Entry] | Iterable | None) -> MemoryRecord | StoreRecord:
    return StoreRecord(known) if isinstance(known, Store) else MemoryRecord(known)
