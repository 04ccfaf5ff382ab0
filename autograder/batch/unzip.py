"""Open an LMS download zip safely: no paths outside the target, no links, bounded size."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from autograder.zips import TooLarge, copy_member, is_link, member_name, safe_parts

MAX_MEMBERS = 50_000
MAX_TOTAL_BYTES = 8 * 1024**3


class UnzipError(Exception):
    """A zip that can't be opened safely; the message is one line."""


def names(path: Path) -> list[str]:
    """Member names (files and folders), or [] if it isn't a readable zip."""
    try:
        with zipfile.ZipFile(path) as zf:
            return [member_name(i) for i in zf.infolist()]
    except (zipfile.BadZipFile, OSError, ValueError):
        return []


def extract(path: Path, dest: Path) -> list[str]:
    """Extract into dest (created); returns problem lines for members left out."""
    problems: list[str] = []
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise UnzipError(f"{path.name}: not a readable zip ({exc})") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise UnzipError(f"{path.name}: {len(infos)} files, more than {MAX_MEMBERS}")
        total = 0
        dest.mkdir(parents=True, exist_ok=True)
        for info in infos:
            name = member_name(info)
            parts = safe_parts(name)
            if parts is None:
                problems.append(f"{path.name}:{name}: unsafe path in zip, left out")
                continue
            if is_link(info):
                problems.append(f"{path.name}:{name}: symbolic link in zip, left out")
                continue
            target = dest.joinpath(*parts)
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            try:
                total += copy_member(zf, info, target, MAX_TOTAL_BYTES - total)
            except TooLarge:
                raise UnzipError(f"{path.name}: more than {MAX_TOTAL_BYTES} bytes unpacked") from None
            except (zipfile.BadZipFile, OSError, RuntimeError, ValueError) as exc:
                problems.append(f"{path.name}:{name}: can't be extracted ({exc})")
                target.unlink(missing_ok=True)
    return problems


def fresh_dir(path: Path) -> Path:
    """An empty folder at path (whatever was there is removed)."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path
