"""What discovery finds: entries (one per student submission) and problem lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    """One submission to grade.

    student: a safe id, usable as a file name, unique in the batch.
    path: a folder, .py, .ipynb or .zip (possibly assembled under the workdir).
    source: how it was recognised: canvas, nbgrader, gradescope, moodle, folder, file or link.
    late: the LMS marked it late (Canvas's _LATE_).
    original: the name(s) it had in the download.
    """
    student: str
    path: Path
    source: str
    late: bool = False
    original: str = ""


@dataclass
class Discovery:
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    workdir: Path | None = None  # where folders were assembled or zips opened, if anywhere
