"""OUT/canvas-import.csv: the instructor's Canvas gradebook export with this assignment's column filled.

The export's shape is canvas-lms's (lib/gradebook_exporter.rb): a header of "Student", "ID",
["SIS User ID"], "SIS Login ID", ["Integration ID"], ["Root Account"], "Section", custom columns,
then one column per assignment titled "<title> (<assignment id>)", then read-only totals; an
optional row for manually posted assignments; a "    Points Possible" row; a row per student
whose "ID" is the Canvas user id. That id is also in the download's file names
(<name>_<userid>_<fileid>_<file>), so each graded submission finds its row by it. Everything
else in the file stays as it was: other columns, students without a submission, "EX" cells.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from autograder.batch.layouts.canvas import AMBIGUOUS
from autograder.lms.graded import Graded, LmsError, claimed_twice
from autograder.lms.grades import Scale, parse_number, two_places
from autograder.lms.table import Table, read_table

WHAT = "a Canvas gradebook export"
OUTPUT = "canvas-import.csv"
ASSIGNMENT = re.compile(r"^(?P<title>.*\S)\s+\((?P<id>\d+)\)$")
TOTALS = ("Current Points", "Final Points", "Current Score", "Unposted Current Score", "Final Score",
          "Unposted Final Score", "Current Grade", "Unposted Current Grade", "Final Grade",
          "Unposted Final Grade", "Override Score", "Override Grade")
POINTS_POSSIBLE = "Points Possible"
EXCUSED = "EX"


@dataclass
class Filled:
    column: str
    out_of: float | None
    filled: list[Graded] = field(default_factory=list)
    unmatched: list[tuple[Graded, str]] = field(default_factory=list)   # (student, why)
    kept: list[tuple[Graded, str]] = field(default_factory=list)        # in the export, cell left as it was


def assignment_columns(header: list[str]) -> list[int]:
    """The indices of assignment columns: "<title> (<id>)", not a total ("Current Score (Fall 2020)")."""
    return [i for i, name in enumerate(header)
            if (m := ASSIGNMENT.match(name)) and not m["title"].endswith(TOTALS)]


def pick_column(header: list[str], wanted: str | None, path: Path) -> int:
    columns = assignment_columns(header)
    listed = "; ".join(header[i] for i in columns)
    if not columns:
        raise LmsError(f"{path}: no assignment column (\"<title> (<id>)\"): is it {WHAT}?")
    if wanted is None:
        if len(columns) == 1:
            return columns[0]
        raise LmsError(f"{path} has {len(columns)} assignments: say which with --assignment NAME or ID: {listed}")
    hits = [i for i in columns
            if wanted.strip() in (header[i], ASSIGNMENT.match(header[i])["title"], ASSIGNMENT.match(header[i])["id"])]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise LmsError(f"{path}: {len(hits)} assignments are called {wanted!r}: give its id: "
                       + "; ".join(header[i] for i in hits))
    raise LmsError(f"{path}: no assignment {wanted!r}; its assignments are: {listed}")


def fill_canvas(table: Table, graded: list[Graded], *, assignment: str | None, percent: bool = False,
                late_penalty: float = 0.0) -> Filled:
    """Fill the assignment's column in table (in place) with every matching student's grade."""
    header = table.header
    id_col = table.column("ID")
    if id_col is None or ("Student" not in header and "LastName" not in header):
        raise LmsError(f"{table.path}: no \"Student\" and \"ID\" columns: is it {WHAT}?")
    col = pick_column(header, assignment, table.path)
    points_row = next((r for r in table.rows[1:] if r[0].strip() == POINTS_POSSIBLE), None)
    out_of = parse_number(points_row[col]) if points_row else None
    scale = Scale(out_of=out_of, percent=percent, late_penalty=late_penalty)
    result = Filled(header[col], out_of)
    rows = {int(r[id_col]): r for r in table.rows[1:] if r[id_col].strip().isdigit()}
    twice = claimed_twice(graded, "canvas")
    for g in graded:
        uid = g.lms_id("canvas")
        if uid in twice:
            result.unmatched.append((g, f"another row claims Canvas user {uid} too: neither is written; "
                                        "enter the right one by hand"))
        elif uid is None and g.source == "canvas" and AMBIGUOUS in g.student:
            result.unmatched.append((g, "its Canvas file name reads as more than one user (the batch said which): "
                                        "enter its grade by hand"))
        elif uid is None:
            result.unmatched.append((g, "not from a Canvas download (no Canvas user id in its name)"))
        elif uid not in rows:
            result.unmatched.append((g, f"Canvas user {uid} is not in the export"))
        elif rows[uid][col].strip() == EXCUSED:
            result.kept.append((g, "excused (EX) in Canvas"))
        else:
            value = scale.value(g)
            rows[uid][col] = f"{two_places(value)}%" if percent else two_places(value)
            result.filled.append(g)
    if graded and not result.filled and not result.kept:
        raise LmsError(f"{table.path}: none of the {len(graded)} graded students is in it "
                       "(an export of another course?)")
    return result


def canvas_import(out: Path, gradebook: Path, graded: list[Graded], *, assignment: str | None = None,
                  percent: bool = False, late_penalty: float = 0.0) -> tuple[Path, Filled]:
    """Write OUT/canvas-import.csv; nothing is written when the input can't be used."""
    table = read_table(gradebook, WHAT)
    result = fill_canvas(table, graded, assignment=assignment, percent=percent, late_penalty=late_penalty)
    dest = Path(out) / OUTPUT
    table.write(dest)
    return dest, result
