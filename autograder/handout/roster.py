"""One edition per student of a roster: `autograder handout OUT --roster ROSTER.csv` (and the per-student otter
notebooks, `autograder export otter DIR --roster ROSTER.csv`).

The roster is a CSV with a header and an `id` column (a `name` column is kept if there is one):
the id the course's LMS gives each student, as `autograder grade` will find it in the download
(Canvas's user id, Moodle's participant id, Gradescope's SID or email, nbgrader's student id, or
the name of the folder a student hands in). OUT/<id>/ is that student's handout: their stubs
(with their variant's extra operation), their public cases' goldens, their README lines; OUT/variants.csv
records which variant each got, for the instructor (it names no secret, but keep it to yourself).
Late students: the same command with the roster grown writes theirs alone into OUT, the others untouched.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Callable

from autograder.batch.ids import file_names
from autograder.batch.progress import progress_bar
from autograder.config import Rubric
from autograder.exercises.variant_source import write_package
from autograder.files import write_text_atomic
from autograder.handout.write import HandoutError, write_handout
from autograder.scratch import scratch
from autograder.variants.assign import for_student
from autograder.variants.roster import read_roster

ROSTER_RECORD = "variants.csv"


def write_handouts(out: Path, *, rubric: Rubric, roster: Path) -> list[Path]:
    """OUT/<id>/ for every student of the roster, and OUT/variants.csv; the files written."""
    return write_per_student(out, rubric=rubric, roster=roster, write_one=_student_handout,
                             what="one handout per student's variant")


def _student_handout(dest: Path, mine: Rubric) -> list[Path]:
    with scratch("autograder-variant-") as stubs:
        write_package(Path(stubs), mine.variant, solution=False)
        return write_handout(dest, rubric=mine, exercises=Path(stubs))


def write_per_student(out: Path, *, rubric: Rubric, roster: Path, write_one: Callable[[Path, Rubric], list[Path]],
                      what: str) -> list[Path]:
    """write_one(OUT/<folder>, that student's rubric) for every student of the roster, and OUT/variants.csv.

    OUT already holding a roster's editions (its variants.csv): only the roster's students not in it are
    written (late students), each into a folder of their own, and added to variants.csv; the others' are left
    as they are (checked to be of the variant the course draws for them now)."""
    if rubric.variants is None:
        raise HandoutError(f"--roster writes {what}: add a [variants] table to assignment.toml (or leave --roster "
                           "out for one edition for everyone)")
    ids = read_roster(roster)
    out = Path(out)
    earlier = _earlier(out, rubric)
    taken = {folder.casefold() for _, folder, _ in earlier}
    had = {student for student, _, _ in earlier}
    new = [i for i in ids if i not in had]
    folders = _new_folders(new, taken)
    written, rows = [], list(earlier)
    with progress_bar(len(new), what=f"writing {what}") as advance:
        for student, folder in zip(new, folders):
            if (out / folder).exists():
                raise HandoutError(f"{out / folder} is there already, but not in {out / ROSTER_RECORD}: move it away")
            mine = for_student(rubric, student)
            written += write_one(out / folder, mine)
            rows.append((student, folder, mine.variant.label))
            advance(student)
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\r\n")
    writer.writerow(["id", "folder", "variant"])
    writer.writerows(rows)
    write_text_atomic(out / ROSTER_RECORD, record.getvalue())
    return written + [out / ROSTER_RECORD]


def _earlier(out: Path, rubric: Rubric) -> list[tuple[str, str, str]]:
    """(id, folder, variant) of the editions OUT holds already: none for a new or empty folder; a HandoutError
    for a folder that holds something else, or editions of other variants than the course draws now."""
    if not out.exists() or not any(out.iterdir()):
        return []
    record = out / ROSTER_RECORD
    if not record.is_file():
        raise HandoutError(f"{out} is not empty and holds no {ROSTER_RECORD} of a roster's editions: choose a new folder")
    rows = [(r["id"], r["folder"], r["variant"]) for r in csv.DictReader(io.StringIO(record.read_text(encoding="utf-8")))]
    for student, folder, label in rows:
        now = for_student(rubric, student).variant.label
        if now != label:
            raise HandoutError(f"{record}: {student} was handed {label}, but the course now draws {now} for them "
                               "(another secret or [variants] table?): write the late students' editions with the "
                               "course's settings of then, or into a new folder")
    return rows


def _new_folders(new: list[str], taken: set[str]) -> list[str]:
    """Folder names for the new students, none the same as one taken (compared as a file system would)."""
    names = []
    for name in file_names(new):
        candidate, n = name, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{name}-{n}"
        taken.add(candidate.casefold())
        names.append(candidate)
    return names
