"""What every LMS layout is: the Layout protocol, and Found, what it finds in a download."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from autograder.batch.entry import Entry
from autograder.batch.ids import MARK, MAX_LEN, sanitise
from autograder.batch.workspace import Workspace

ROOM = len(MARK) + 6   # what the batch's mark adds to an id another id is the same as (batch/ids.py)


def with_lms_id(name: str, lms_id: str) -> str:
    """<name>_<lms id>, the name shortened where it is long so that the LMS's id stays at the end, where
    the LMS imports read it (lms/graded.py), even once the batch marks it: a long name cut at the end
    could leave digits of the name there, another student's id."""
    tail = f"_{lms_id}"
    if len(sanitise(name + tail)) <= MAX_LEN - ROOM:
        return name + tail   # made safe with the batch's other ids
    return sanitise(name)[: MAX_LEN - ROOM - len(tail)] + tail


@dataclass
class Found:
    entries: list[Entry]
    problems: list[str] = field(default_factory=list)
    rest: list[Path] = field(default_factory=list)  # children the layout left: plain submissions, or not


class Layout(Protocol):
    name: str

    def looks_like(self, folder: Path) -> bool:
        """Is this folder a download of this LMS?"""

    def looks_like_names(self, names: list[str]) -> bool:
        """Are these a zip's member names (paths, "/" between parts) a download of this LMS?"""

    def find(self, folder: Path, ws: Workspace, shown: str) -> Found:
        """The submissions in the download, what is wrong with it, and what is left."""
