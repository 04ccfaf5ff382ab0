"""A CSV file read and written back as the LMS wrote it: the same cells, encoding, BOM and line ends.

Only the cells a caller changes differ; everything else (every column and row, the quoting a
value needs, non-ASCII names) survives a round trip through csv.reader and csv.writer.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from autograder.files import UnreadableText, read_utf8, write_bytes_atomic
from autograder.lms.graded import LmsError

MAX_BYTES = 64 * 2**20
BOM = "\ufeff"


@dataclass
class Table:
    path: Path
    rows: list[list[str]]       # the header first
    bom: bool
    newline: str

    @property
    def header(self) -> list[str]:
        return self.rows[0]

    def column(self, name: str) -> int | None:
        return self.header.index(name) if name in self.header else None

    def render(self) -> bytes:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator=self.newline)
        writer.writerows(self.rows)
        return ((BOM if self.bom else "") + out.getvalue()).encode("utf-8")

    def write(self, dest: Path) -> None:
        write_bytes_atomic(dest, self.render())


def read_table(path: Path, what: str) -> Table:
    """The CSV at path (what: "a Canvas gradebook export", for messages), every row as long as the header."""
    path = Path(path)
    try:
        text = read_utf8(path, max_bytes=MAX_BYTES)
    except UnreadableText as err:
        raise LmsError(f"{path}: {err}; expected {what}, exported as UTF-8") from None
    bom = text.startswith(BOM)
    text = text[len(BOM):] if bom else text
    newline = "\r\n" if "\r\n" in text else "\n"
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as err:
        raise LmsError(f"{path}: not a valid CSV file ({err}); is it {what}?") from None
    rows = [r for r in rows if r]  # a blank line at the end
    if not rows:
        raise LmsError(f"{path}: empty; expected {what}")
    width = len(rows[0])
    for number, row in enumerate(rows[1:], 2):
        if len(row) != width:
            raise LmsError(f"{path}: row {number} has {len(row)} cells, the header {width}: the file is "
                           f"damaged or not {what}")
    return Table(path, rows, bom, newline)
