"""The class's grades as an `autograder grade --out OUT` run left them, read back from OUT/gradebook.csv
(its spreadsheet guards undone: an id that begins with +, - or @ comes back as the kit wrote it)."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from autograder.batch.exports import GRADEBOOK
from autograder.errors import UserError
from autograder.report.csv_report import unguard

# the LMS's own id at the end of a student id that the download's names gave: "obrien_mary_12345",
# "Ada_Lovelace_42" (and "~3f2a9c" where another name made the same id: batch/ids.py; "-2" from earlier kits)
LMS_ID = re.compile(r"_(?P<id>\d+)(?:-\d+|~[0-9a-f]{6})?$")


class LmsError(UserError):
    """Input an LMS export can't be made from: one line, nothing written."""


@dataclass(frozen=True)
class Graded:
    student: str          # the kit's id (a file name in OUT/reports and OUT/feedback)
    score: float
    max_score: float
    status: str           # graded | error | unrostered | missing (a roster's student with no submission)
    error: str
    late: bool
    source: str           # how the batch recognised it: canvas, moodle, folder, ...

    def lms_id(self, source: str) -> int | None:
        """The id the LMS gave this student in its download (Canvas user id, Moodle participant), if
        the submission came from that LMS's download."""
        m = LMS_ID.search(self.student) if self.source == source else None
        return int(m["id"]) if m else None

    def percent(self) -> float:
        return 100.0 * self.score / self.max_score if self.max_score else 0.0


def claimed_twice(graded: list[Graded], source: str) -> set[int]:
    """The LMS ids that more than one row claims: neither row's grade is written there (one would be
    another student's), whatever made two rows of one id."""
    seen: dict[int, int] = {}
    for g in graded:
        found = g.lms_id(source)
        if found is not None:
            seen[found] = seen.get(found, 0) + 1
    return {found for found, count in seen.items() if count > 1}


def read_graded(out: Path) -> list[Graded]:
    """Every row of OUT/gradebook.csv; LmsError when OUT is not a grade output folder."""
    path = Path(out) / GRADEBOOK
    if not path.is_file():
        raise LmsError(f"{out}: no {GRADEBOOK} here: give the folder `autograder grade ... --out` wrote")
    try:
        rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
        return [Graded(unguard(r["student"]), float(r["score"] or 0), float(r["max_score"] or 0), r["status"],
                       unguard(r["error"]), r["late"] == "yes", unguard(r["source"])) for r in rows]
    except (KeyError, ValueError, csv.Error, UnicodeDecodeError) as err:
        raise LmsError(f"{path}: not a gradebook the kit wrote ({err.__class__.__name__}: {err})") from None


def on_the_roster(graded: list[Graded]) -> tuple[list[Graded], list[str]]:
    """The rows an LMS gets (a roster's missing students and unrostered submissions left out: a missing
    student's cell is left as the LMS has it, not set to 0), and a line for each left out."""
    kept = [g for g in graded if g.status not in ("missing", "unrostered")]
    lines = [f"not sent: {g.student}: {'no submission (missing)' if g.status == 'missing' else 'not on the roster'}"
             for g in graded if g.status in ("missing", "unrostered")]
    return kept, lines
