"""A student's folder as the loader sees it: which files count, wrapper folders, renamed downloads.

Hidden files, caches, virtual environments and editor backups never count; links are never
followed (a link could lead to anyone's files).
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

MAX_DEPTH = 4  # wrapper folders looked through
MAX_FILE_BYTES = 1024 * 1024  # one Python file (copied in, or unzipped)
SKIPPED = {"__pycache__", "__macosx", "site-packages", "venv", "node_modules"}
# "engine (1).py", "engine-2.py", "Engine.py": how an LMS or an OS renames a file
RENAMED = re.compile(r"^(engine|nn|train)[\s_-]*(\(\d+\)|\d+)?\.py$", re.IGNORECASE)


def python_files(folder: Path, *, deep: bool = False, notebooks: bool = False) -> list[Path]:
    """The visible .py files (and notebooks, if asked) in folder (and below it, if deep), sorted. Hidden
    folders and links are never entered (a venv/ of thousands of files costs nothing)."""
    found: list[Path] = []
    folders = [str(folder)]
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:  # the entry's type from the folder's listing: no stat for most files
            name = entry.name
            if _hidden_part(name) or entry.is_symlink():
                continue
            if entry.is_dir():
                if deep:
                    folders.append(entry.path)
            elif (name.endswith(".py") or notebooks and name.lower().endswith(".ipynb")) and entry.is_file():
                found.append(Path(entry.path))
    return sorted(found)


def links(folder: Path, depth: int = MAX_DEPTH) -> list[Path]:
    """The symbolic links in folder, a few levels down (not through links)."""
    found: list[Path] = []
    for p in visible(folder):
        if p.is_symlink():
            found.append(p)
        elif depth and p.is_dir():
            found += links(p, depth - 1)
    return found


def unwrapped(folder: Path) -> Path:
    """folder, through wrapper folders (no file in them, one folder)."""
    for _ in range(MAX_DEPTH):
        try:
            entries = [e for e in os.scandir(folder) if not _hidden_part(e.name)]
        except OSError:
            break
        dirs = [e for e in entries if e.is_dir(follow_symlinks=False)]
        if len(dirs) != 1 or any(e.is_file() for e in entries):
            break
        folder = Path(dirs[0].path)
    return folder


def engine_file(folder: Path) -> Path | None:
    """engine.py at folder's top, or a file an OS or an LMS renamed from it ("engine (1).py")."""
    if (folder / "engine.py").is_file():
        return folder / "engine.py"
    return next((p for p in python_files(folder) if module_of(p.name) == "engine"), None)


def package_of(path: Path, top: Path) -> Path:
    """The folder of path's package: its folder, or the outermost package (a folder with an __init__.py)
    it is in, below top."""
    package = path.parent
    while package != top and (package.parent / "__init__.py").is_file():
        package = package.parent
    return package


def visible(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if not hidden(Path(p.name))]
    except OSError:
        return []


def visible_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def hidden(rel: Path) -> bool:
    return any(_hidden_part(part) for part in rel.parts)


def _hidden_part(part: str) -> bool:
    return part.startswith(".") or part.lower() in SKIPPED or part.endswith("~")


def module_of(name: str) -> str | None:
    """"engine" for "engine (1).py": the module an OS or an LMS renamed a file from, or None."""
    match = RENAMED.match(name)
    return match.group(1).lower() if match else None


def fresh(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path
