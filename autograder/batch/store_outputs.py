"""The store's record of the output files it wrote (its `outputs` table; outputs.py and output_record.py read it):
per file, a digest of what it was made from and its stat after writing, kept a file at a time; and the files a
run wrote or found up to date, marked in a temporary table (on disk), so that none of it is held in memory.
Part of Store (store.py), which opens the connection and makes the tables.
"""
from __future__ import annotations

from typing import Mapping


class OutputsTable:
    _db = None  # the store's sqlite3 connection (Store.__init__)

    def outputs(self) -> dict[str, tuple[str, str]]:
        """path (relative to the out folder) -> (inputs digest, stat) of each output file last written."""
        return {path: (inputs, stat) for path, inputs, stat in self._db.execute("SELECT path, inputs, stat FROM outputs")}

    def set_outputs(self, outputs: Mapping[str, tuple[str, str]]) -> None:
        """Record the output files as now written (replacing the whole record)."""
        with self._db:
            self._db.execute("DELETE FROM outputs")
            self._db.executemany("INSERT INTO outputs (path, inputs, stat) VALUES (?, ?, ?)",
                                 [(path, inputs, stat) for path, (inputs, stat) in outputs.items()])

    def output(self, path: str) -> tuple[str, str] | None:
        """One output file's (inputs digest, stat), as last recorded (output_record.StoreRecord)."""
        found = self._db.execute("SELECT inputs, stat FROM outputs WHERE path = ?", (path,)).fetchone()
        return None if found is None else (found[0], found[1])

    def record_output(self, path: str, inputs: str, stat: str) -> None:
        """Committed with the next grade stored, or by keep_marked_outputs: a record lost to a crash only has a
        file written again."""
        self._db.execute("INSERT OR REPLACE INTO outputs (path, inputs, stat) VALUES (?, ?, ?)", (path, inputs, stat))

    def forget_output(self, path: str) -> None:
        self._db.execute("DELETE FROM outputs WHERE path = ?", (path,))

    def start_output_run(self) -> None:
        """A temporary table (on disk, not in memory) of the files this run writes or finds up to date."""
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS output_run (path TEXT PRIMARY KEY)")
        self._db.execute("DELETE FROM output_run")

    def mark_output(self, path: str) -> None:
        self._db.execute("INSERT OR IGNORE INTO output_run (path) VALUES (?)", (path,))

    def output_marked(self, path: str) -> bool:
        return self._db.execute("SELECT 1 FROM output_run WHERE path = ?", (path,)).fetchone() is not None

    def keep_marked_outputs(self) -> None:
        with self._db:
            self._db.execute("DELETE FROM outputs WHERE path NOT IN (SELECT path FROM output_run)")
