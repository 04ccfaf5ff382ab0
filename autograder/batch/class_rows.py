"""A class's rows as its store holds them, read in one pass each time they are walked: the grading process
holds the class's order and keys, never its rows (a class of 20,000 briefs is ~20 MB; issue 32).

    rows = StoredRows(store, ["ana", "ben"], keys.get, lost=...)
    for row in rows:        # one SELECT over the store, in the class's order; each row dropped once read
        ...

Iterated while its Store is open (the batch, while it writes the class's files), it reads through it; once
closed (a BatchResult's rows, read by the command's output or a test), it opens the store file again. A row
made in memory (`made`: an unrostered submission not graded) is given as it is; a student the store has no
row for under their key gets `lost(student)` (the kit lost their result: a row that says so).
"""
from __future__ import annotations

from typing import Callable, Iterator, Mapping, Sequence

from autograder.batch.keys import GradeKey
from autograder.batch.row import BatchRow
from autograder.batch.store import Store


class StoredRows(Sequence[BatchRow]):
    def __init__(self, store: Store, students: Sequence[str], key: Callable[[str], GradeKey | None], *,
                 made: Mapping[str, BatchRow] | None = None, lost: Callable[[str], BatchRow] | None = None):
        self.store = store
        self.students = students
        self.key = key
        self.made = made or {}
        self.lost = lost

    def __len__(self) -> int:
        return len(self.students)

    def __iter__(self) -> Iterator[BatchRow]:
        if not self.store.closed:
            yield from self._walk(self.store)
            return
        with Store(self.store.path) as store:
            yield from self._walk(store)

    def __eq__(self, other) -> bool:  # as a tuple of its rows is (a walk each)
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  (as a list's: its rows are the store's, not fixed)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        index = range(len(self))[index]  # an IndexError as a tuple's
        return next(row for i, row in enumerate(self) if i == index)

    def only(self, students: Sequence[str]) -> StoredRows:
        """These rows only (some of the class's, in the order given), read as the class's are."""
        return StoredRows(self.store, students, self.key, made=self.made, lost=self.lost)

    def flagged(self) -> tuple[BatchRow, ...]:
        """The rows that could not be graded or are not final (a crash's, the next run retries them), in order: one
        walk in which the store reads out only those (Store.flagged_of), no other row made or brief parsed."""
        if not self.store.closed:
            return tuple(self._flagged(self.store))
        with Store(self.store.path) as store:
            return tuple(self._flagged(store))

    def _flagged(self, store: Store) -> Iterator[BatchRow]:
        keyed = ((s, k) for s in self.students if s not in self.made and (k := self.key(s)) is not None)
        found = store.flagged_of(keyed)
        try:
            ahead = next(found, None)
            for student in self.students:
                row = self.made.get(student)
                if row is None:
                    if self.key(student) is not None:
                        if ahead is None or ahead[0] != student:
                            continue  # stored, graded and final: not one of them
                        row, ahead = ahead[1], next(found, None)
                    if row is None:  # no key, or no row under it
                        if self.lost is None:
                            raise KeyError(f"{student}: no row in {store.path}")
                        row = self.lost(student)
                if row.ungradable or not row.final:
                    yield row
        finally:
            found.close()

    def _walk(self, store: Store) -> Iterator[BatchRow]:
        keyed = ((s, k) for s in self.students if s not in self.made and (k := self.key(s)) is not None)
        stored = store.rows_of(keyed)
        try:
            for student in self.students:
                row = self.made.get(student)
                if row is None:
                    row = next(stored) if self.key(student) is not None else None
                    if row is None:
                        if self.lost is None:
                            raise KeyError(f"{student}: no row in {store.path}")
                        row = self.lost(student)
                yield row
        finally:
            stored.close()
