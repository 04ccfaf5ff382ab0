"""Turn what an instructor downloaded into a list of (student id, submission path).

Each argument may be one submission (a folder holding micrograd/ or engine.py, a .py,
.ipynb or .zip), a folder of submissions (each child is one), or an LMS download:
Canvas (folder or zip), nbgrader (course root or submitted/), Gradescope export (folder
or zip). Moodle's "<Full Name>_<id>_assignsubmission_file_" folders get "<Full Name>_<id>".
Junk (.DS_Store, __MACOSX/, ...) and other files are skipped with a problem line.

Only the input the instructor names alone can be an LMS download. Given several paths
(`grade submissions/*`), each is a student's submission or a plain folder of them:
a student's zip or folder holding a submission_metadata.yml or Canvas-style names is
the student's own, opened under a student's limits, and never decides anyone's id.
A symbolic link is never followed: its row says so.
"""
from __future__ import annotations

import os
import stat
from itertools import groupby
from dataclasses import replace
from pathlib import Path

from autograder.batch import unzip
from autograder.batch.entry import Discovery, Entry
from autograder.batch.ids import assign, sanitise, uniquify
from autograder.batch.items import (SUBMISSION_SUFFIXES, children, is_junk, is_junk_name, is_one_submission, narrow,
                                    not_a_submission)
from autograder.batch.layouts import moodle, recognise, recognise_names
from autograder.batch.workspace import Workspace

__all__ = ["Discovery", "Entry", "discover"]


def discover(paths: list[Path], workdir: Path | None = None) -> Discovery:
    """Entries sorted by student id (unique, safe as file names) and problem lines.

    Canvas groups and LMS zips are assembled under <workdir>/intake (recreated on
    each call); without a workdir, under a temporary folder named in Discovery.workdir.
    """
    ws = Workspace(workdir)
    found: list[Entry] = []
    problems: list[str] = []
    lms = len(paths) == 1  # a download is named alone; among several paths each is a student's
    for arg in paths:
        _argument(Path(arg).absolute(), ws, found, problems, lms=lms)
    entries = _finalise(found, problems, ws.root)
    problems = [" ".join(p.split()) for p in problems]
    return Discovery(entries, problems, ws.root if ws.used else None)


def _argument(arg: Path, ws: Workspace, found: list[Entry], problems: list[str], *, lms: bool = True) -> None:
    shown = arg.name or str(arg)
    if arg.is_symlink():
        found.append(Entry(arg.name, arg, "link", False, arg.name))  # graded as an error that says why
    elif not arg.exists():
        problems.append(f"{arg}: no such file or folder")
    elif arg.is_dir() and not is_junk(arg):
        if not lms and _is_layout(arg) and not is_one_submission(arg):
            problems.append(f"{shown}: looks like an LMS download, but was given among several paths: read as a "
                            "folder of submissions; give a download alone to read it as one")
        _folder(arg, shown, ws, found, problems, lms=lms)
    elif arg.suffix.lower() == ".zip" and lms and _is_lms_zip(arg):
        dest = ws.new(f"unzipped/{sanitise(arg.stem)}")
        try:
            problems += unzip.extract(arg, dest)
        except unzip.UnzipError as exc:
            problems.append(str(exc))
            return
        while not _is_layout(dest) and len(kids := _kept(dest)) == 1 and kids[0].is_dir():
            dest = kids[0]
        _folder(dest, shown, ws, found, problems)
    else:
        _children([arg], None, found, problems)


def _folder(folder: Path, shown: str, ws: Workspace, found: list[Entry], problems: list[str], *,
            lms: bool = True) -> None:
    if is_one_submission(folder):
        found.append(Entry(folder.name, folder, "folder", False, folder.name))
    elif not lms or (layout := recognise(folder)) is None:
        _children(children(folder), shown, found, problems)
    else:
        got = layout.find(folder, ws, shown)
        found += got.entries
        problems += got.problems
        _children(got.rest, shown, found, problems)


def _children(items: list[Path], shown: str | None, found: list[Entry], problems: list[str]) -> None:
    """Each item is one submission: a folder, .py, .ipynb or .zip; anything else is skipped."""
    for item in items:
        try:
            mode = os.lstat(item).st_mode
        except OSError:
            mode = 0
        name = item.name
        if stat.S_ISREG(mode) and not is_junk_name(name) and item.suffix.lower() in SUBMISSION_SUFFIXES:
            found.append(Entry(item.stem, item, "file", False, name))  # the common case, from one lstat
            continue
        where = f"{shown}/{name}" if shown else str(item)
        if stat.S_ISLNK(mode):  # never followed: a row whose grading says so
            found.append(Entry(item.stem if item.suffix else item.name, item, "link", False, item.name))
            continue
        problem = not_a_submission(item, where)
        if problem:
            problems.append(problem)
        elif item.is_dir():
            student = moodle.student_id(item.name) or item.name
            found.append(Entry(student, narrow(item), "folder", False, item.name))
        else:
            found.append(Entry(item.stem, item, "file", False, item.name))


def _kept(folder: Path) -> list[Path]:
    return [p for p in children(folder) if not is_junk(p)]


def _is_layout(folder: Path) -> bool:
    return recognise(folder) is not None


def _is_lms_zip(path: Path) -> bool:
    """A Canvas download, Gradescope export or Moodle download, rather than one student's zip."""
    return recognise_names(unzip.names(path)) is not None


def _finalise(found: list[Entry], problems: list[str], root: Path | None) -> list[Entry]:
    """Safe, de-duplicated, unique ids (batch/ids.py: each the same whatever else is in the class), sorted;
    a problem line for every id several submissions' names make, naming each original and its id."""
    seen: set[tuple[str, str]] = set()
    unique: list[Entry] = []
    folders: dict[str, str] = {}
    for e in found:
        key = (e.student, _resolved(e.path, folders))
        if key in seen:
            problems.append(f"{e.path}: given more than once; graded once")
            continue
        seen.add(key)
        unique.append(e)
    del seen
    unique.sort(key=lambda e: (sanitise(e.student).casefold(), e.student, e.source, e.original, e.where))
    # an origin is made only for a name another's id collides with (a class's are rarely needed, never held)
    ids = uniquify(assign([e.student for e in unique], _Origins(unique, root)))
    # sorted by their id's folded form first: the submissions that make one id are neighbours
    for _, group in groupby(zip(unique, ids), key=lambda pair: sanitise(pair[0].student).casefold()):
        group = list(group)
        if len(group) > 1:
            problems.append(f"{len(group)} submissions make the id {sanitise(group[0][0].student)}: "
                            + "; ".join(f"{e.original or e.student!r} is {sid}" for e, sid in group))
    for i, (e, sid) in enumerate(zip(unique, ids)):
        unique[i] = replace(e, student=sid)  # in place: a class's entries are one list at a time
    unique.sort(key=lambda e: (e.student.casefold(), e.student))
    return unique


class _Origins:
    """_origin of each entry, made when asked (ids.assign asks only of names whose ids collide)."""

    def __init__(self, entries: list[Entry], root: Path | None):
        self.entries, self.root = entries, root

    def __getitem__(self, i: int) -> str:
        return _origin(self.entries[i], self.root)

    def __len__(self) -> int:
        return len(self.entries)


def _resolved(path: Path, folders: dict[str, str]) -> str:
    """path.resolve(), as text, its folder's resolved once for all the files in it (a class's thousands share one)."""
    text = str(path)
    folder, name = os.path.split(text)
    if name in ("", ".", "..") or os.path.islink(text):
        return str(path.resolve())
    if folder not in folders:
        folders[folder] = str(Path(folder).resolve())
    return os.path.join(folders[folder], name)


def _origin(e: Entry, root: Path | None) -> str:
    """Where a submission came from, the same on every run and every machine (shards mount a class
    anywhere): a path under the intake's temporary folder is taken below it, any other by its last parts."""
    path = e.path
    parts = path.relative_to(root).parts if root is not None and path.is_relative_to(root) else path.parts[-3:]
    return "\0".join([e.source, e.original, *parts])
