"""One handout per student of a roster: `autograder handout OUT --roster ROSTER.csv`.

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

from autograder.batch.ids import file_names
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.exercises.variant_source import write_package
from autograder.files import write_text_atomic
from autograder.handout.write import HandoutError, write_handout
from autograder.variants.assign import for_student

ROSTER_RECORD = "variants.csv"


def read_roster(path: Path) -> list[str]:
    """The roster's ids, in order; a UserError (one line) for a file that is not a roster."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"--roster {path}: can't read it ({getattr(err, 'strerror', None) or err})") from None
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or "id" not in (rows[0].keys()):
        raise UserError(f"--roster {path}: a CSV with a header row and an `id` column (one student per row)")
    ids = [(r.get("id") or "").strip() for r in rows]
    blank = [str(n + 2) for n, i in enumerate(ids) if not i]
    if blank:
        raise UserError(f"--roster {path}: line(s) {', '.join(blank[:5])} have no id")
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise UserError(f"--roster {path}: id(s) listed twice: {', '.join(repeated[:5])}")
    return ids


def write_handouts(out: Path, *, rubric: Rubric, roster: Path) -> list[Path]:
    """OUT/<id>/ for every student of the roster, and OUT/variants.csv; the files written."""
    if rubric.variants is None:
        raise HandoutError("--roster writes one handout per student's variant: add a [variants] table to "
                           "assignment.toml (or leave --roster out for one handout for everyone)")
    ids = read_roster(roster)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise HandoutError(f"{out} is not empty: choose a new folder for the handouts")
    written, record = [], io.StringIO()
    writer = csv.writer(record, lineterminator="\r\n")
    writer.writerow(["id", "folder", "variant"])
    for student, folder in zip(ids, file_names(ids)):
        mine = for_student(rubric, student)
        with tempfile.TemporaryDirectory(prefix="autograder-variant-") as stubs:
            write_package(Path(stubs), mine.variant, solution=False)
            written += write_handout(out / folder, rubric=mine, exercises=Path(stubs))
        writer.writerow([student, folder, mine.variant.label])
    write_text_atomic(out / ROSTER_RECORD, record.getvalue())
    return written + [out / ROSTER_RECORD]
