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
        found = store.flagged_of(self._keyed())
        try:
            for row in self._merged(found):
                if row.ungradable or not row.final:
                    yield row
        finally:
            found.close()

    def _walk(self, store: Store) -> Iterator[BatchRow]:
        stored = store.rows_of(self._keyed())  # a row (or None) for each keyed student, in the class's order
        try:
            yield from self._merged(zip((student for student, _ in self._keyed()), stored))
        finally:
            stored.close()

    def _keyed(self) -> Iterator[tuple[str, GradeKey]]:
        """(student, key) of each student whose row is the store's, in the class's order."""
        return ((s, k) for s in self.students if s not in self.made and (k := self.key(s)) is not None)

    def _merged(self, found: Iterator[tuple[str, BatchRow | None]]) -> Iterator[BatchRow]:
        """The class's rows in its order: a made one as it is, a keyed one from `found` ((student, row or None)
        in the class's order; a keyed student it leaves out is left out here too), `lost` where there is none."""
        ahead = next(found, None)
        for student in self.students:
            row = self.made.get(student)
            if row is None:
                if self.key(student) is not None:
                    if ahead is None or ahead[0] != student:
                        continue  # not among those found (Store.flagged_of: stored, graded and final)
                    row, ahead = ahead[1], next(found, None)
                if row is None:  # no key, or no row under it
                    if self.lost is None:
                        raise KeyError(f"{student}: no row in {self.store.path}")
                    row = self.lost(student)
            yield row
