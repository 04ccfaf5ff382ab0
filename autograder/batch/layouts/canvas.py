"""Canvas "Download Submissions": flat files named <name>[_LATE]_<userid>_<fileid>_<original>.

<name> is the student's sortable name, lower-cased, with every non-word character
removed (canvas-lms, lib/content_zipper.rb): letters of any script, digits and
underscores ("obrien_mary", "müller2_jan"). <original> is the uploaded file's name,
which may hold underscores and hyphens. So the split is: the shortest <name> after
which `[_LATE]_<digits>_<digits>_` follows.

One student's files (engine.py, nn.py, train.py uploaded separately), grouped by
user id, become one folder, with the prefix and Canvas's "-1" duplicate suffix
stripped; a single file stays itself. A file in a Canvas download that fits no
Canvas name (renamed by hand, say) is reported and not graded: guessing a student
from it would grade one student as several.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from autograder.batch.entry import Entry
from autograder.batch.layouts.base import Found
from autograder.batch.ids import sanitise
from autograder.batch.items import SUBMISSION_SUFFIXES, children, is_junk
from autograder.batch.workspace import Workspace

NAME = re.compile(r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<cid>\d+)_(?P<fid>\d+)_(?P<orig>.+)$")
DUPLICATE = re.compile(r"^(?P<stem>.+)-\d+(?P<ext>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True)
class CanvasFile:
    path: Path
    student: str      # <name>_<userid>
    user_id: int      # what the gradebook export matches on
    late: bool
    file_id: int
    name: str  # the original name, Canvas's prefix and -N suffix stripped


def parse(path: Path) -> CanvasFile | None:
    m = NAME.match(path.name)
    if not m or not path.is_file():
        return None
    dup = DUPLICATE.match(m["orig"])
    name = dup["stem"] + dup["ext"] if dup else m["orig"]
    return CanvasFile(path, f"{m['name']}_{m['cid']}", int(m["cid"]), bool(m["late"]), int(m["fid"]), name)


def looks_like(names: list[str]) -> bool:
    """Canvas-named files are at least half of what's there (junk aside)."""
    names = [n for n in names if not is_junk(Path(n))]
    hits = sum(1 for n in names if NAME.match(n))
    return hits > 0 and 2 * hits >= len(names)


def find(folder: Path, ws: Workspace, shown: str) -> tuple[list[Entry], list[str], list[Path]]:
    """Entries for the Canvas-named files; problems; the other children (folders), for the caller.

    Files are grouped by user id. A file that fits no Canvas name is a problem line, not a student."""
    groups: dict[int, list[CanvasFile]] = {}
    rest: list[Path] = []
    problems: list[str] = []
    for child in children(folder):
        found = None if is_junk(child) else parse(child)
        if found:
            groups.setdefault(found.user_id, []).append(found)
        elif child.is_file() and not is_junk(child):
            problems.append(f"{shown}/{child.name}: not graded: in a Canvas download but not named as Canvas "
                            "names files (<name>[_LATE]_<userid>_<fileid>_<file>); rename it or grade it alone")
        else:
            rest.append(child)
    entries = []
    for _, files in sorted(groups.items()):
        student = min(files, key=lambda f: f.file_id).student  # one id, whatever name a later file has
        path = _one_submission(student, files, ws, shown, problems)
        original = ", ".join(sorted(f.path.name for f in files))
        entries.append(Entry(student, path, "canvas", any(f.late for f in files), original))
    return entries, problems, rest


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
