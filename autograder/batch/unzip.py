"""Open an LMS download zip safely: no paths outside the target, no links, bounded size."""
from __future__ import annotations

import shutil
import stat
import zipfile
from pathlib import Path, PurePosixPath

MAX_MEMBERS = 50_000
MAX_TOTAL_BYTES = 8 * 1024**3


class UnzipError(Exception):
    """A zip that can't be opened safely; the message is one line."""


def member_name(info: zipfile.ZipInfo) -> str:
    """The member's name, mending UTF-8 names stored without the UTF-8 flag (macOS, Windows)."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            name = name.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return name.replace("\\", "/")


def names(path: Path) -> list[str]:
    """Member names (files and folders), or [] if it isn't a readable zip."""
    try:
        with zipfile.ZipFile(path) as zf:
            return [member_name(i) for i in zf.infolist()]
    except (zipfile.BadZipFile, OSError, ValueError):
        return []


def _safe_parts(name: str) -> tuple[str, ...] | None:
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or ":" in parts[0] or ".." in parts:
        return None
    return parts


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
            parts = _safe_parts(name)
            if parts is None:
                problems.append(f"{path.name}:{name}: unsafe path in zip, left out")
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                problems.append(f"{path.name}:{name}: symbolic link in zip, left out")
                continue
            target = dest.joinpath(*parts)
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as src, open(target, "wb") as out:
                    while chunk := src.read(1 << 20):
                        total += len(chunk)
                        if total > MAX_TOTAL_BYTES:
                            raise UnzipError(f"{path.name}: more than {MAX_TOTAL_BYTES} bytes unpacked")
                        out.write(chunk)
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
