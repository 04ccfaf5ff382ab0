"""Student ids that are safe file names, unique in a batch and the same on every run."""
from __future__ import annotations

import unicodedata
from typing import Sequence

MAX_LEN = 100
_KEEP = set("-_.@+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                     *(f"lpt{i}" for i in range(10))}


def sanitise(raw: str) -> str:
    """Letters (any script), digits and `-_.@+` stay; anything else becomes `_`.

    No leading dots, no trailing dots or spaces, no Windows device names, at most
    MAX_LEN characters, never empty.
    """
    text = unicodedata.normalize("NFC", str(raw)).strip()
    out = "".join(c if (c.isalnum() or c in _KEEP) else "_" for c in text)
    out = out.lstrip(".").rstrip(". ")[:MAX_LEN].rstrip(". ")
    if out.split(".")[0].lower() in _WINDOWS_RESERVED:
        out = ("_" + out)[:MAX_LEN]
    return out or "student"


def uniquify(ids: list[str]) -> list[str]:
    """The same ids, with -2, -3... appended to repeats (compared case-insensitively,
    as on macOS and Windows file systems), in the order given."""
    taken: set[str] = set()
    out = []
    for sid in ids:
        candidate, n = sid, 1
        while candidate.casefold() in taken:
            n += 1
            suffix = f"-{n}"
            candidate = sid[: MAX_LEN - len(suffix)] + suffix
        taken.add(candidate.casefold())
        out.append(candidate)
    return out


def file_names(students: Sequence[str]) -> list[str]:
    """Safe, distinct file names (feedback/<name>.html), in the order given; a student id that is
    one already is used as it is."""
    return uniquify([sanitise(s) for s in students])
