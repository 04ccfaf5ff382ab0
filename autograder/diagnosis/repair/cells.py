"""A notebook's cell map through a repair: where a line of the converted engine.py is in the notebook, and
the map of a repaired copy (a repair that adds a line moves the cells after it).

The map is child/cells.py's: one "number first last" line per code cell, 1-based, inclusive.
"""
from __future__ import annotations

import difflib

SUFFIX = ".cells"


def read(text: str) -> list[tuple[int, int, int]]:
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            rows.append((int(parts[0]), int(parts[1]), int(parts[2])))
    return rows


def cell_of(cells: list[tuple[int, int, int]], line: int) -> tuple[int, int] | None:
    """(cell number, line within the cell) of a line of the converted file (a cell's first line there is its
    `# In[N]:` marker, the cell's own text follows it)."""
    for number, first, last in cells:
        if first < line <= last:
            return number, line - first
    return None


def shifted(cells: list[tuple[int, int, int]], old: str, new: str) -> str:
    """The map of `new`, the repaired text of `old`: lines added after a cell's line belong to that cell."""
    a, b = old.splitlines(), new.splitlines()
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()

    def at(i: int) -> int:
        """The 0-based line of `new` that old line i (0-based; len(a): the end) became."""
        for tag, i1, i2, j1, j2 in opcodes:
            if i1 <= i < i2:
                return j1 + (i - i1 if tag == "equal" else min(i - i1, max(j2 - j1 - 1, 0)))
        return len(b)
    return "".join(f"{n} {at(first - 1) + 1} {at(last)}\n" for n, first, last in cells)
