"""Moodle's "Download all submissions": a folder per student, `<Full Name>_<id>_assignsubmission_file_`.

The student id is "<Full Name>_<id>"; the participant id is what the offline grading
worksheet matches on. The full name is the student's to choose, so the id is read from the
end Moodle writes (the last `_<digits>_assignsubmission_`), and a long name is shortened
before it, never the id after it.
"""
from __future__ import annotations

import re
from pathlib import Path

from autograder.batch.entry import Entry
from autograder.batch.layouts.base import Found, with_lms_id
from autograder.batch.items import children, is_junk, narrow
from autograder.batch.workspace import Workspace

FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:ment)?submission_\w+?_?$")


def student_id(name: str) -> str | None:
    """"Ada Lovelace_42" for a Moodle submission folder's name, else None."""
    m = FOLDER.match(name)
    return with_lms_id(m["name"], m["id"]) if m else None


class Moodle:
    name = "moodle"

    def looks_like(self, folder: Path) -> bool:
        return self.looks_like_names([p.name for p in children(folder) if p.is_dir() and not is_junk(p)])

    def looks_like_names(self, names: list[str]) -> bool:
        top = {n.strip("/").split("/")[0] for n in names if not n.startswith("__MACOSX")}
        hits = [t for t in top if FOLDER.match(t)]
        return bool(hits) and 2 * len(hits) >= len(top)

    def find(self, folder: Path, ws: Workspace, shown: str):

        found = Found([])
        for child in children(folder):
            who = student_id(child.name) if child.is_dir() and not child.is_symlink() else None
            if who:
                found.entries.append(Entry(who, narrow(child), "moodle", False, child.name))
            else:
                found.rest.append(child)
        return found


LAYOUT = Moodle()
