"""A course's roster: a CSV with a header row and an `id` column, one student per row.

The id is the one the course's LMS gives each student, as `autograder grade` finds it in the download
(autograder/variants/ids.py): Canvas's user id, Moodle's participant id, Gradescope's SID (else the email),
nbgrader's student id, or the name of the folder a student hands in. Other columns (a name) are ignored.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from autograder.errors import UserError


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
