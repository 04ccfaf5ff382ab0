"""The folder handout: the exercises, the student-side check tool, the public goldens."""
from __future__ import annotations

from pathlib import Path

from autograder.config import Rubric


class FolderHandout:
    name = "handout"
    summary = "a folder for students: the stubs, the check tool and its README, the public goldens; nothing hidden"

    def write(self, dest: Path, *, rubric: Rubric, roster: Path | None = None, **_) -> list[Path]:
        """roster: one handout per student of it, each of that student's variant ([variants])."""
        if roster is not None:
            from autograder.handout.roster import write_handouts
            return write_handouts(dest, rubric=rubric, roster=roster)
        from autograder.handout.write import write_handout
        return write_handout(dest, rubric=rubric)


EDITION = FolderHandout()
