"""OUT/moodle-grades.csv and OUT/moodle-feedback.zip: Moodle's offline grading worksheet, filled, and
each student's feedback page as Moodle's "Upload multiple feedback files in a zip" takes it.

The worksheet is the one Moodle's assignment writes ("Download grading worksheet"): an
"Identifier" column of "Participant <N>", "Grade", "Maximum Grade", "Last modified (grade)" and,
when feedback comments are on, "Feedback comments". Moodle's importer
(mod/assign/feedback/offline/importgradeslib.php) finds those columns by name and the student by
the number after "Participant "; that number is the one in the download's folder names
(`<Full Name>_<N>_assignsubmission_file_`), which gave the kit its student ids.
The feedback zip holds `<Full Name>_<N>_assignfeedback_file_/feedback.html` per student: Moodle's
importer (mod/assign/feedback/file/importziplib.php) splits a folder name at "_" and reads the
participant from the second part, the plugin from the third and fourth.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from autograder.batch.exports import FEEDBACK
from autograder.files import write_bytes_atomic
from autograder.lms.comment import short_comment
from autograder.lms.graded import LMS_ID, Graded, LmsError, claimed_twice
from autograder.lms.grades import Scale, parse_number
from autograder.lms.table import Table, read_table

WHAT = "a Moodle grading worksheet"
GRADES, FEEDBACK_ZIP = "moodle-grades.csv", "moodle-feedback.zip"
IDENTIFIER, GRADE, MAXIMUM, MODIFIED = "Identifier", "Grade", "Maximum Grade", "Last modified (grade)"
COMMENTS, CAN_CHANGE = "Feedback comments", "Grade can be changed"
PARTICIPANT = "Participant "


@dataclass
class Filled:
    filled: list[Graded] = field(default_factory=list)
    unmatched: list[tuple[Graded, str]] = field(default_factory=list)
    kept: list[tuple[Graded, str]] = field(default_factory=list)
    comments: bool = True        # the worksheet had a Feedback comments column


def comment(out: Path, g: Graded) -> str:
    """One paragraph for Moodle's feedback comments: the score, the tasks that lost points."""
    return short_comment(out, g) + " The feedback file says what was expected and why."


def fill_moodle(out: Path, table: Table, graded: list[Graded], *, percent: bool = False,
                late_penalty: float = 0.0) -> Filled:
    cols = {name: table.column(name) for name in (IDENTIFIER, GRADE, MODIFIED)}
    missing = [name for name, i in cols.items() if i is None]
    if missing:
        raise LmsError(f"{table.path}: no {', '.join(repr(m) for m in missing)} column: is it {WHAT} "
                       "(the assignment's \"Download grading worksheet\")?")
    grade_col, max_col = cols[GRADE], table.column(MAXIMUM)
    comments_col, change_col = table.column(COMMENTS), table.column(CAN_CHANGE)
    result = Filled(comments=comments_col is not None)
    rows = {}
    for row in table.rows[1:]:
        ident = row[cols[IDENTIFIER]].strip()
        if ident.startswith(PARTICIPANT) and ident[len(PARTICIPANT):].isdigit():
            rows[int(ident[len(PARTICIPANT):])] = row
    twice = claimed_twice(graded, "moodle")
    for g in graded:
        pid = g.lms_id("moodle")
        row = rows.get(pid) if pid is not None else None
        if pid in twice:
            result.unmatched.append((g, f"another row claims Participant {pid} too: neither is written; "
                                        "enter the right one by hand"))
        elif pid is None:
            result.unmatched.append((g, "not from a Moodle download (no participant number in its name)"))
        elif row is None:
            result.unmatched.append((g, f"Participant {pid} is not in the worksheet"))
        else:
            if change_col is not None and row[change_col].strip().lower() == "no":
                result.kept.append((g, "Moodle says its grade can't be changed (locked or overridden)"))
                continue
            out_of = parse_number(row[max_col]) if max_col is not None else None
            value = Scale(out_of=out_of, percent=percent, late_penalty=late_penalty).value(g)
            row[grade_col] = f"{value:.2f}"
            if comments_col is not None:
                row[comments_col] = comment(out, g)
            result.filled.append(g)
    if graded and not result.filled and not result.kept:
        raise LmsError(f"{table.path}: none of the {len(graded)} graded students is in it "
                       "(the worksheet of another assignment or course?)")
    return result


def feedback_zip(out: Path, students: list[Graded]) -> bytes:
    """`<Full Name>_<N>_assignfeedback_file_/feedback.html` for every student with a feedback page."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for g in students:
            page = Path(out) / FEEDBACK / f"{g.student}.html"
            pid = g.lms_id("moodle")
            if pid is None or not page.is_file():
                continue
            name = LMS_ID.sub("", g.student).replace("_", " ").strip() or "student"
            info = zipfile.ZipInfo(f"{name}_{pid}_assignfeedback_file_/feedback.html", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, page.read_bytes())
    return buffer.getvalue()


def moodle_import(out: Path, worksheet: Path, graded: list[Graded], *, percent: bool = False,
                  late_penalty: float = 0.0) -> tuple[list[Path], Filled]:
    """Write OUT/moodle-grades.csv and OUT/moodle-feedback.zip; nothing when the input can't be used."""
    table = read_table(worksheet, WHAT)
    result = fill_moodle(out, table, graded, percent=percent, late_penalty=late_penalty)
    data = feedback_zip(out, result.filled)
    grades, zipped = Path(out) / GRADES, Path(out) / FEEDBACK_ZIP
    table.write(grades)
    write_bytes_atomic(zipped, data)
    return [grades, zipped], result
