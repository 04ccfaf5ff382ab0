"""One edition per student of a roster: `autograder handout OUT --roster ROSTER.csv` (and the per-student otter
notebooks, `autograder export otter DIR --roster ROSTER.csv`).

The roster is a CSV with a header and an `id` column (a `name` column is kept if there is one):
the id the course's LMS gives each student, as `autograder grade` will find it in the download
(Canvas's user id, Moodle's participant id, Gradescope's SID or email, nbgrader's student id, or
the name of the folder a student hands in). OUT/<id>/ is that student's handout: their stubs
(with their variant's extra operation), their public cases' goldens, their README lines; OUT/variants.csv
records which variant each got, for the instructor (it names no secret, but keep it to yourself).
"""
from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path
from typing import Callable

from autograder.batch.ids import file_names
from autograder.config import Rubric
from autograder.exercises.variant_source import write_package
from autograder.files import write_text_atomic
from autograder.handout.write import HandoutError, write_handout
from autograder.variants.assign import for_student
from autograder.variants.roster import read_roster

ROSTER_RECORD = "variants.csv"


def write_handouts(out: Path, *, rubric: Rubric, roster: Path) -> list[Path]:
    """OUT/<id>/ for every student of the roster, and OUT/variants.csv; the files written."""
    return write_per_student(out, rubric=rubric, roster=roster, write_one=_student_handout,
                             what="one handout per student's variant")


def _student_handout(dest: Path, mine: Rubric) -> list[Path]:
    with tempfile.TemporaryDirectory(prefix="autograder-variant-") as stubs:
        write_package(Path(stubs), mine.variant, solution=False)
        return write_handout(dest, rubric=mine, exercises=Path(stubs))


def write_per_student(out: Path, *, rubric: Rubric, roster: Path, write_one: Callable[[Path, Rubric], list[Path]],
                      what: str) -> list[Path]:
    """write_one(OUT/<folder>, that student's rubric) for every student of the roster, and OUT/variants.csv."""
    if rubric.variants is None:
        raise HandoutError(f"--roster writes {what}: add a [variants] table to assignment.toml (or leave --roster "
                           "out for one edition for everyone)")
    ids = read_roster(roster)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise HandoutError(f"{out} is not empty: choose a new folder")
    written, record = [], io.StringIO()
    writer = csv.writer(record, lineterminator="\r\n")
    writer.writerow(["id", "folder", "variant"])
    for student, folder in zip(ids, file_names(ids)):
        mine = for_student(rubric, student)
        written += write_one(out / folder, mine)
        writer.writerow([student, folder, mine.variant.label])
    write_text_atomic(out / ROSTER_RECORD, record.getvalue())
    return written + [out / ROSTER_RECORD]
