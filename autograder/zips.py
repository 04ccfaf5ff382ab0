"""What every zip the kit opens shares: mended member names, safe paths, bounded copies.

Two policies use it: a student's own zip is refused whole when anything in it is
unsafe (autograder/submission/unzip.py); an LMS download leaves the unsafe
member out and goes on with the rest of the class (autograder/batch/unzip.py).
"""
from __future__ import annotations

import stat
import zipfile
from pathlib import Path, PurePosixPath


class TooLarge(Exception):
    """A member unpacked to more bytes than allowed."""


def member_name(info: zipfile.ZipInfo) -> str:
    """The member's name with / separators, UTF-8 names stored without the UTF-8 flag mended (macOS, Windows)."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            name = name.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return name.replace("\\", "/")


def safe_parts(name: str) -> tuple[str, ...] | None:
    """The path parts of a member that stays inside its folder, else None (absolute, drive, `..`)."""
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or ":" in parts[0] or ".." in parts:
        return None
    return parts


def is_link(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16)


def copy_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, limit: int) -> int:
    """Write one member to target, never more than `limit` bytes whatever its header says; the size written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    size = 0
    with zf.open(info) as src, open(target, "wb") as out:
        while chunk := src.read(1 << 16):
            size += len(chunk)
            if size > limit:
                raise TooLarge(f"{info.filename} unpacks to more than {limit} bytes")
            out.write(chunk)
    return size
