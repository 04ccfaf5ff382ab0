"""What every LMS layout is: the Layout protocol, and Found, what it finds in a download."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from autograder.batch.entry import Entry
from autograder.batch.workspace import Workspace


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
