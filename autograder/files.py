"""Write files whole or not at all (a kill never leaves a half-written one); read a text file a user gave."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes_atomic(path: Path, data: bytes) -> None:
    with AtomicFile(path) as f:
        f.write(data)


class AtomicFile:
    """A file written a piece at a time and put in place whole (os.replace) when the block ends without an
    error, unless discard() was called: a kill leaves the file as it was, and its bytes are never all in memory."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            fd, self.tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        except FileNotFoundError:  # its folder first (tried only then: a folder that is there costs no call)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, self.tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        self.file = os.fdopen(fd, "wb")
        self.kept = True

    def write(self, data: bytes) -> None:
        self.file.write(data)

    def discard(self) -> None:
        self.kept = False

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind, *_) -> None:
        try:
            if kind is None and self.kept:
                # mkstemp makes 0600; a written file gets the modes of any new file (0644 under umask 022),
                # so students and TAs sharing a machine can read a handout or a class's feedback
                os.fchmod(self.file.fileno(), 0o666 & ~_umask())
                self.file.close()
                os.replace(self.tmp, self.path)
                return
        except BaseException:
            self.file.close()
            Path(self.tmp).unlink(missing_ok=True)
            raise
        self.file.close()
        Path(self.tmp).unlink(missing_ok=True)


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: Path, data) -> None:
    write_text_atomic(path, json.dumps(data, sort_keys=True, indent=1) + "\n")


class UnreadableText(ValueError):
    """Why a text file a user gave can't be read, in a few words (the caller names the file)."""


def read_utf8(path: Path, *, max_bytes: int) -> str:
    """A user's UTF-8 text file, whole (a BOM is kept: the caller decides what it means)."""
    try:
        size = Path(path).stat().st_size
        if size > max_bytes:  # said before reading it: its size is the user's to choose
            raise UnreadableText(f"too large ({size // 2**20} MiB; at most {max_bytes // 2**20} MiB)")
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableText(f"can't be read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise UnreadableText(f"too large (over {max_bytes // 2**20} MiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableText(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
