"""Unpack one submission's .zip safely: its Python files only, inside the target, bounded.

A zip with an entry outside its folder (absolute, `..`) or a symbolic link is
refused whole; so is one too large or with too many entries (a zip bomb).
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from autograder.submission.tree import MAX_FILE_BYTES
from autograder.zips import TooLarge, copy_member, is_link, member_name, safe_parts

MAX_ENTRIES = 1000
MAX_TOTAL_BYTES = 50 * 1024 * 1024   # all entries, unpacked
USED_SUFFIXES = (".py", ".ipynb")
SKIPPED_DIRS = {"__pycache__", "__macosx"}


class ZipRefused(Exception):
    """A zip that can't be used; the message is one line."""


def unzip(path: Path, dest: Path) -> list[str]:
    """Extract the .py/.ipynb files of the zip at path into dest; returns problem lines."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ZipRefused(f"{path.name} is not a valid zip file") from None
    problems: list[str] = []
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ZipRefused(f"{path.name} has {len(infos)} entries, more than the {MAX_ENTRIES} allowed")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_TOTAL_BYTES:
            raise ZipRefused(f"{path.name} unpacks to {declared / 2**20:.0f} MB, "
                             f"more than the {MAX_TOTAL_BYTES // 2**20} MB allowed")
        wanted = []
        for info in infos:
            name = member_name(info)
            parts = safe_parts(name)
            if parts is None:
                raise ZipRefused(f"{path.name} has an entry outside its folder ({name}); zip the files themselves")
            if is_link(info):
                raise ZipRefused(f"{path.name} holds a symbolic link ({name}); zip the files themselves")
            if info.is_dir() or not name.lower().endswith(USED_SUFFIXES) or _skipped(parts):
                continue
            if info.file_size > MAX_FILE_BYTES:
                problems.append(f"{name} is larger than {MAX_FILE_BYTES // 2**20} MB: left out")
                continue
            wanted.append((info, parts))
        for info, parts in wanted:
            _extract(zf, info, dest.joinpath(*parts), path.name)
    return problems


def _skipped(parts: tuple[str, ...]) -> bool:
    return any(p.startswith(".") or p.lower() in SKIPPED_DIRS for p in parts)


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, zip_name: str) -> None:
    """Copy one entry, never more than MAX_FILE_BYTES whatever its header says."""
    try:
        copy_member(zf, info, target, MAX_FILE_BYTES)
    except TooLarge:
        raise ZipRefused(f"{zip_name}: {info.filename} unpacks to more than it says (a zip bomb?)") from None
    except (zipfile.BadZipFile, RuntimeError, ValueError, OSError) as exc:  # damaged, encrypted
        raise ZipRefused(f"{zip_name}: {info.filename} can't be extracted ({exc})") from None
