"""Student ids that are safe file names, unique in a batch and the same on every run.

A submission's id is its name made safe (`sanitise`). Where several names make one id
(`rt3 coll` and `rt3_coll`; `Ana` and `ana`; one SID on two submissions), the submission whose
name is that id, if exactly one is, keeps it, and every other gets the id with the kit's mark:
`rt3_coll~3f2a9c`, six hex digits of a hash of its own name and origin. So an id never holds
another student's work, a suffix never takes a name someone has, and each id depends on its
submission alone, not on the rest of the class. `~` is never in an id made from a name alone.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from typing import Sequence

MAX_LEN = 100
_KEEP = set("-_.@+")
MARK = "~"    # the kit's mark of an id told apart from another (never kept from a name)
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                     *(f"lpt{i}" for i in range(10))}


# ASCII letters and digits and -_.@+, no leading dot, no trailing dot, at most MAX_LEN
_PLAIN = re.compile(r"(?![.])[A-Za-z0-9_.@+-]{0,%d}(?<![.])" % (MAX_LEN - 1) + "[A-Za-z0-9_@+-]", re.ASCII)


def sanitise(raw: str) -> str:
    """Letters (any script), digits and `-_.@+` stay; anything else becomes `_`.

    No leading dots, no trailing dots or spaces, no Windows device names, at most
    MAX_LEN characters, never empty.
    """
    if _PLAIN.fullmatch(raw) and raw.split(".")[0].lower() not in _WINDOWS_RESERVED:
        return raw  # already an id (most of a class): as the rest below would leave it
    text = unicodedata.normalize("NFC", str(raw)).strip()
    out = "".join(c if (c.isalnum() or c in _KEEP) else "_" for c in text)
    out = out.lstrip(".").rstrip(". ")[:MAX_LEN].rstrip(". ")
    if out.split(".")[0].lower() in _WINDOWS_RESERVED:
        out = ("_" + out)[:MAX_LEN]
    return out or "student"


def assign(names: Sequence[str], origins: Sequence[str]) -> list[str]:
    """One id per submission, in the order given: sanitise(name), or, where another submission's name
    makes the same id (compared case-insensitively, as on macOS and Windows), that id marked with a
    hash of (name, origin) unless the name is exactly the id and no other name is. origin: what
    tells two submissions of one name apart (where each came from), the same on every run."""
    ids = [sanitise(n) for n in names]
    groups: dict[str, list[int]] = defaultdict(list)
    for i, sid in enumerate(ids):
        groups[sid.casefold()].append(i)
    out = list(ids)
    for members in groups.values():
        if len(members) == 1:
            continue
        exact = [i for i in members if names[i] == ids[i]]
        keeper = exact[0] if len(exact) == 1 else None
        for i in members:
            if i != keeper:
                out[i] = marked(ids[i], f"{names[i]}\0{origins[i]}")
    return out


def marked(sid: str, what: str) -> str:
    """sid with the kit's mark and six hex digits of a hash of what (within MAX_LEN)."""
    digest = hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{sid[: MAX_LEN - 7]}{MARK}{digest}"


def is_id(text: str) -> bool:
    """Is text an id the kit could have given (a name made safe, marked or not)?"""
    return sanitise(text.replace(MARK, "_")) == text.replace(MARK, "_")


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
    return uniquify([s if is_id(s) else sanitise(s) for s in students])
