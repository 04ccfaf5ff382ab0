"""Editions of the assignment: each writes what one platform's course needs, from one source.

Every edition is made from solutions/ (through exercises/) and the case library, so
a fix reaches every platform at once and the same code gets the same score on each.
An edition is a module with an EDITION (the Edition protocol below); EDITIONS lists
them once. Today: the folder handout (`autograder handout OUT`). Next: the otter-grader
and nbgrader notebooks and the Gradescope autograder zip (`autograder export NAME DEST`),
each a module here and one line in EDITIONS.
"""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from autograder.config import Rubric
from autograder.editions import gradescope, handout, nbgrader, otter, prairielearn

__all__ = ["EDITIONS", "Edition", "edition"]


class Edition(Protocol):
    name: str          # as the command line names it
    summary: str       # one line: what it writes, for whom

    def write(self, dest: Path, *, rubric: Rubric, **options) -> list[Path]:
        """Write the edition at dest (new or empty); return the files written. Raises a UserError
        (one line) for a destination or rubric it can't use, and writes nothing half-done.
        options, each used by the editions that need it and ignored by the others:
        assignment (the assignment's id: nbgrader, prairielearn), hidden_visibility (when Gradescope shows hidden cases),
        roster (with [variants]: the students an edition is written for, or whose variants it grades)."""


EDITIONS: tuple[Edition, ...] = (handout.EDITION, otter.EDITION, nbgrader.EDITION, gradescope.EDITION,
                                 prairielearn.EDITION)


def edition(name: str) -> Edition:
    """The edition of that name (KeyError if there is none)."""
    return {e.name: e for e in EDITIONS}[name]
