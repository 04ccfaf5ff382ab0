"""What discovery finds: entries (one per student submission) and problem lines."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Entry:
    """One submission to grade.

    student: a safe id, usable as a file name, unique in the batch.
    path: a folder, .py, .ipynb or .zip (possibly assembled under the workdir); kept as its text (`where`:
      a class's entries live through its grading, and a Path is ~4 times the size), made a Path when asked.
    source: how it was recognised: canvas, nbgrader, gradescope, moodle, folder, file or link.
    late: the LMS marked it late (Canvas's _LATE_).
    original: the name(s) it had in the download.
    """
    student: str
    where: str   # the path as text (a Path given is kept as str(path))
    source: str
    late: bool = False
    original: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.where, str):
            object.__setattr__(self, "where", os.fspath(self.where))

    @property
    def path(self) -> Path:
        return Path(self.where)


@dataclass
class Discovery:
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    workdir: Path | None = None  # where folders were assembled or zips opened, if anywhere
