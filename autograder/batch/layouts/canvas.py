"""Canvas "Download Submissions": flat files named <name>[_LATE]_<userid>_<fileid>_<original>.

<name> is the student's sortable name, lower-cased, with every non-word character
removed (canvas-lms, lib/content_zipper.rb): letters of any script, digits and
underscores ("obrien_mary", "müller2_jan"). <original> is the uploaded file's name,
which may hold underscores, digits and hyphens. Both ends are the student's to choose
(a display name, a file name); only the ids between them are Canvas's. So a name is
read every way it can be (each place where `[_LATE]_<digits>_<digits>_` follows a
name), and a reading is dropped only on evidence: Canvas writes one name per user in
a download, so a reading that gives a user id another file holds alone under another
name is not that user. A file left with one reading is that student's; a file left
with several (Eve, user 123, named herself "Eve_777_1": eve_777_1_123_4999_engine.py
reads as user 777, 1 or 123) is graded in a row of its own whose id names no user
(`<name>_<userid>_ambiguous`, with the files that read the same ways), a problem
line says how it reads, and no LMS import fills it: it is never merged into another
student's row, nor its grade written into another's cell.

One student's files (engine.py, nn.py, train.py uploaded separately), grouped by
user id, become one folder, with the prefix and Canvas's "-1" duplicate suffix
stripped; a single file stays itself. A file in a Canvas download that fits no
Canvas name (renamed by hand, say) is reported and not graded: guessing a student
from it would grade one student as several.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from autograder.batch.entry import Entry
from autograder.batch.layouts.base import ROOM, Found, with_lms_id
from autograder.batch.ids import MAX_LEN, sanitise
from autograder.batch.items import SUBMISSION_SUFFIXES, children, is_junk, is_junk_name
from autograder.batch.workspace import Workspace

NAME = re.compile(r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<cid>\d+)_(?P<fid>\d+)_(?P<orig>.+)$")
TAIL = re.compile(r"(?P<late>_LATE)?_(?P<cid>\d+)_(?P<fid>\d+)_(?P<orig>.+)$")   # what follows a <name>
WORD = re.compile(r"\w+")
AMBIGUOUS = "_ambiguous"   # the end of a row's id whose files read as more than one Canvas user
DUPLICATE = re.compile(r"^(?P<stem>.+)-\d+(?P<ext>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True)
class CanvasFile:
    path: Path
    student: str      # <name>_<userid>
    user_id: int      # what the gradebook export matches on
    late: bool
    file_id: int
    name: str  # the original name, Canvas's prefix and -N suffix stripped


def readings(path: Path) -> list[CanvasFile]:
    """Every way the file's name reads as a Canvas name, shortest <name> first (none: not one)."""
    if not path.is_file():
        return []
    text, found = path.name, []
    for i in range(1, len(text)):
        if text[i] != "_":
            continue
        name = text[:i]
        if not WORD.fullmatch(name):
            break                      # a longer <name> holds the same non-word character
        m = TAIL.match(text, i)
        if m and not name.endswith("_LATE"):   # that one is the shorter name, late
            dup = DUPLICATE.match(m["orig"])
            original = dup["stem"] + dup["ext"] if dup else m["orig"]
            found.append(CanvasFile(path, with_lms_id(name, m["cid"]), int(m["cid"]), bool(m["late"]),
                                    int(m["fid"]), original))
    return found


def parse(path: Path) -> CanvasFile | None:
    """The file's Canvas name, when it reads only one way."""
    found = readings(path)
    return found[0] if len(found) == 1 else None


def looks_like(names: list[str]) -> bool:
    """Canvas-named files are at least half of what's there (junk aside)."""
    names = [n for n in names if not is_junk_name(os.path.basename(n.rstrip("/")))]
    hits = sum(1 for n in names if NAME.match(n))
    return hits > 0 and 2 * hits >= len(names)


def find(folder: Path, ws: Workspace, shown: str) -> tuple[list[Entry], list[str], list[Path]]:
    """Entries for the Canvas-named files; problems; the other children (folders), for the caller.

    Files that read as one user are grouped by user id; files that read as several, by the readings
    left. A file that fits no Canvas name is a problem line, not a student."""
    read: dict[Path, list[CanvasFile]] = {}
    rest: list[Path] = []
    problems: list[str] = []
    for child in children(folder):
        found = [] if is_junk(child) else readings(child)
        if found:
            read[child] = found
        elif child.is_file() and not is_junk(child):
            problems.append(f"{shown}/{child.name}: not graded: in a Canvas download but not named as Canvas "
                            "names files (<name>[_LATE]_<userid>_<fileid>_<file>); rename it or grade it alone")
        else:
            rest.append(child)
    groups: dict[int, list[CanvasFile]] = {}
    unsure: dict[tuple[str, ...], list[CanvasFile]] = {}
    for options in _settled(read).values():
        if len(options) == 1:
            groups.setdefault(options[0].user_id, []).append(options[0])
        else:   # the longest <name>'s reading names its file in the row's folder; never its student
            unsure.setdefault(tuple(o.student for o in options), []).append(options[-1])
    entries = []
    for _, files in sorted(groups.items()):
        student = min(files, key=lambda f: f.file_id).student  # one id, whatever name a later file has
        entries.append(_entry(student, files, ws, shown, problems))
    for key, files in sorted(unsure.items()):
        student = sanitise(files[0].student)[: MAX_LEN - ROOM - len(AMBIGUOUS)] + AMBIGUOUS
        users = sorted({int(k.rsplit("_", 1)[1]) for k in key})
        problems.append(f"{shown}/{', '.join(sorted(f.path.name for f in files))}: the name reads as Canvas user "
                        f"{' or '.join(map(str, users))} (a display name can hold _<digits>_, and so can a file "
                        f"name): graded as {student}, a row no LMS import fills; look the student up in Canvas "
                        "and enter the grade by hand")
        entries.append(_entry(student, files, ws, shown, problems))
    return entries, problems, rest


def _settled(read: dict[Path, list[CanvasFile]]) -> dict[Path, list[CanvasFile]]:
    """Each file's readings, less those that give a user id other files hold alone under another name
    (Canvas writes one name per user in a download), until no more drop out. The true reading is never
    dropped, so a file left with one reading is that student's."""
    options = {path: list(found) for path, found in read.items()}
    while True:
        held: dict[int, set[str]] = {}
        for found in options.values():
            if len(found) == 1:
                held.setdefault(found[0].user_id, set()).add(found[0].student)
        changed = False
        for path, found in options.items():
            kept = [f for f in found if len(found) == 1 or f.student in held.get(f.user_id, {f.student})]
            if kept and len(kept) < len(found):
                options[path], changed = kept, True
        if not changed:
            return options


def _entry(student: str, files: list[CanvasFile], ws: Workspace, shown: str, problems: list[str]) -> Entry:
    path = _one_submission(student, files, ws, shown, problems)
    original = ", ".join(sorted(f.path.name for f in files))
    return Entry(student, path, "canvas", any(f.late for f in files), original)


def _one_submission(student, files, ws, shown, problems) -> Path:
    latest: dict[str, CanvasFile] = {}
    for f in sorted(files, key=lambda f: f.file_id):
        if f.name in latest:
            problems.append(f"{shown}/{latest[f.name].path.name}: {student} has a newer "
                            f"{f.name} ({f.path.name}); kept the newer")
        latest[f.name] = f
    kept = sorted(latest.values(), key=lambda f: f.name)
    code = [f for f in kept if f.path.suffix.lower() in SUBMISSION_SUFFIXES]
    if len(code) == 1 and len(kept) == 1:
        return code[0].path
    if code:
        for f in kept:
            if f not in code:
                problems.append(f"{shown}/{f.path.name}: not a submission file "
                                f"({f.path.suffix or 'no extension'}); left out of {student}")
        if len(code) == 1:
            return code[0].path
        kept = code
    target = ws.new(f"canvas/{sanitise(student)}")
    for f in kept:
        name = f.name if f.name.strip(".") else f.path.name
        shutil.copy2(f.path, target / name)
    return target


class Canvas:
    name = "canvas"

    def looks_like(self, folder: Path) -> bool:
        return looks_like([p.name for p in children(folder)])

    def looks_like_names(self, names: list[str]) -> bool:
        return looks_like([n for n in names if "/" not in n.strip("/")])

    def find(self, folder: Path, ws: Workspace, shown: str):
        return Found(*find(folder, ws, shown))


LAYOUT = Canvas()
