"""The store's record of the folder's last class (its `last_class` table; regrade.LastClass reads and writes it):
a row per student in the class's order, with the grade's key, written a chunk at a time and swapped in at once.
Part of Store (store.py), which opens the connection.
"""
from __future__ import annotations

import itertools
from typing import Iterable, Iterator

_LAST = """
CREATE TABLE IF NOT EXISTS last_class (pos INTEGER PRIMARY KEY, student TEXT NOT NULL, source TEXT NOT NULL,
    content TEXT, kit_version TEXT, hidden_seed TEXT, rubric TEXT, unrostered TEXT)
"""


class LastClassTable:
    _db = None  # the store's sqlite3 connection (Store.__init__)

    def set_last_class(self, rows: Iterable[tuple], meta: tuple[str, str]) -> None:
        """The last class's rows (student, source, the key's four fields or None, unrostered or None), in order,
        written a chunk at a time to a table of their own, which then replaces the last one at once with the meta
        entry (key, value) that describes it: regrade.LastClass."""
        self._db.execute("DROP TABLE IF EXISTS last_class_new")
        self._db.execute(_LAST.replace("last_class", "last_class_new"))
        rows = iter(rows)
        while chunk := list(itertools.islice(rows, 512)):
            with self._db:
                self._db.executemany("INSERT INTO last_class_new (student, source, content, kit_version, hidden_seed, "
                                     "rubric, unrostered) VALUES (?, ?, ?, ?, ?, ?, ?)", chunk)
        with self._db:
            self._db.execute("DROP TABLE IF EXISTS last_class")
            self._db.execute("ALTER TABLE last_class_new RENAME TO last_class")
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta)

    def last_class(self) -> Iterator[tuple]:
        """set_last_class's rows, in their order."""
        self._db.execute(_LAST)
        return self._db.execute("SELECT student, source, content, kit_version, hidden_seed, rubric, unrostered "
                                "FROM last_class ORDER BY pos")

    def last_class_sources_current(self) -> bool:
        """Has every keyed row of the last class a row in the store under its key, with the source it was kept with?"""
        self._db.execute(_LAST)
        return self._db.execute(
            "SELECT 1 FROM last_class l LEFT JOIN grades g ON g.student = l.student AND g.content = l.content AND "
            "g.kit_version = l.kit_version AND g.hidden_seed = l.hidden_seed AND g.rubric = l.rubric "
            "WHERE l.content IS NOT NULL AND (g.source IS NULL OR g.source != l.source) LIMIT 1").fetchone() is None

