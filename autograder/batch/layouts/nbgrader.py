"""nbgrader: <course>/submitted/<student>/<assignment>/... (given the course root or submitted/).

One entry per student and assignment; when the tree holds more than one assignment,
ids are <student>__<assignment> throughout, so every id names the same kind of thing.
"""
from __future__ import annotations

from pathlib import Path

from autograder.batch.entry import Entry
from autograder.batch.layouts.base import Found
from autograder.batch.ids import sanitise
from autograder.batch.items import children, is_junk, is_one_submission, narrow


def submitted_dir(folder: Path) -> Path | None:
    """The submitted/ folder, if folder is an nbgrader course root or submitted/ itself."""
    for candidate in (folder / "submitted", folder):
        if candidate.name == "submitted" and candidate.is_dir() and _shaped(candidate):
            return candidate
    return None


def _shaped(submitted: Path) -> bool:
    """Students' folders holding assignment folders, not submissions themselves."""
    students = [p for p in children(submitted) if p.is_dir() and not is_junk(p)]
    return bool(students) and not any(is_one_submission(s) for s in students) and any(
        p.is_dir() and not is_junk(p) for s in students for p in children(s))


def find(submitted: Path, shown: str) -> tuple[list[Entry], list[str]]:
    problems: list[str] = []
    found: list[tuple[str, Path]] = []
    for student in children(submitted):
        where = f"{shown}/{student.name}"
        if is_junk(student) or not student.is_dir():
            problems.append(f"{where}: not a student folder")
            continue
        assignments = [a for a in children(student) if a.is_dir() and not is_junk(a)]
        for other in children(student):
            if other not in assignments:
                problems.append(f"{where}/{other.name}: not an assignment folder")
        if not assignments:
            problems.append(f"{where}: no assignment folder, nothing to grade")
        found += [(student.name, a) for a in assignments]
    several = len({a.name for _, a in found}) > 1
    entries = [
        Entry(f"{sanitise(s)}__{sanitise(a.name)}" if several else s,
              narrow(a), "nbgrader", False, f"{s}/{a.name}")
        for s, a in found
    ]
    return entries, problems


class Nbgrader:
    name = "nbgrader"

    def looks_like(self, folder: Path) -> bool:
        return submitted_dir(folder) is not None

    def looks_like_names(self, names: list[str]) -> bool:
        return False  # a course tree is graded where it is, not downloaded as a zip

    def find(self, folder: Path, ws, shown: str):
        submitted = submitted_dir(folder)
        return Found(*find(submitted, f"{shown}/submitted" if submitted != folder else shown))


LAYOUT = Nbgrader()
