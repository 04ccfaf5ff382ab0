"""What a file or folder in a download is: junk, one submission, or something else."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

SUBMISSION_SUFFIXES = (".py", ".ipynb", ".zip")
JUNK_NAMES = {".ds_store", "thumbs.db", "desktop.ini", "__macosx", "__pycache__",
              ".ipynb_checkpoints", ".git", ".svn", ".hg", ".idea", ".vscode"}


def is_junk(path: Path) -> bool:
    """OS and editor litter: .DS_Store, __MACOSX/, ._resource forks, hidden files..."""
    return is_junk_name(path.name)


def is_junk_name(name: str) -> bool:
    """is_junk of a path by this name (no Path made: a class's thousands of names are read this way)."""
    return name.lower() in JUNK_NAMES or name.startswith(".") or name.endswith("~")


def is_submission_file(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in SUBMISSION_SUFFIXES


def is_one_submission(folder: Path) -> bool:
    """A folder holding a micrograd/ package or an engine.py is a submission itself."""
    return (folder / "micrograd").is_dir() or (folder / "engine.py").is_file()


def children(folder: Path) -> Iterator[Path]:
    """The folder's entries in name order, each made a Path as it is reached: a class of 20,000 is never 20,000
    Paths at once (~0.4 KB each), only its names."""
    return (folder / name for name in sorted(os.listdir(folder)))


def narrow(folder: Path, depth: int = 3) -> Path:
    """The submission inside a student's folder: the folder itself if it holds Python
    code; else its only notebook or zip; else, through wrapper folders, what's inside.
    Never through a symbolic link: the link itself is returned, and grading it says why."""
    if folder.is_symlink() or is_one_submission(folder) or depth == 0:
        return folder
    kids = [p for p in children(folder) if not is_junk(p)]
    if any(p.is_file() and p.suffix.lower() == ".py" for p in kids):
        return folder
    wrapped = [p for p in kids if is_submission_file(p) or p.is_symlink()]
    if len(wrapped) == 1 and not (wrapped[0].suffix.lower() == ".ipynb" and _holds_code(kids)):
        return wrapped[0]  # (a notebook beside a package of .py files is graded with it: the folder)
    if len(kids) == 1 and kids[0].is_dir():
        return narrow(kids[0], depth - 1)
    return folder


def _holds_code(kids: list[Path]) -> bool:
    """Does one of these folders hold Python files (a package a notebook beside it may import)?"""
    return any(p.is_dir() and not p.is_symlink() and next(p.rglob("*.py"), None) is not None for p in kids)


def not_a_submission(path: Path, shown: str) -> str | None:
    """The problem line for a path that can't be a submission, or None if it may be one."""
    if is_junk(path):
        return f"{shown}: not a submission (system or hidden file)"
    if path.is_dir():
        return None
    if not path.is_file():
        return f"{shown}: not a regular file"
    if path.suffix.lower() not in SUBMISSION_SUFFIXES:
        kind = path.suffix.lower() or "no extension"
        return f"{shown}: not a submission ({kind}; expected a folder, .py, .ipynb or .zip)"
    return None
