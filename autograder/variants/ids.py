"""Whose variant a submission is: the id its LMS gave the student, as the roster names them.

A variant is drawn from the id the LMS keeps for the student, never from a name or from
anything in the submission (which the student wrote): Canvas's user id and Moodle's
participant id (the digits that end the kit's id "<name>_<id>": a display name may change,
the id does not), Gradescope's submitter (its sid or email, as submission_metadata.yml gives
it), nbgrader's student id, and for a plain folder or file its name. The roster of
`autograder handout --roster` lists the same ids.
"""
from __future__ import annotations

from dataclasses import replace

from autograder.config import Rubric
from autograder.lms.graded import LMS_ID
from autograder.variants.assign import variant_of
from autograder.variants.model import Variant

# the sources whose kit ids end in the LMS's numeric id
NUMERIC = ("canvas", "moodle")


def variant_id(student: str, source: str) -> str:
    """The id a batch entry's variant is drawn from (the roster's `id`)."""
    if source in NUMERIC:
        m = LMS_ID.search(student)
        if m:
            return m["id"]
    if source == "nbgrader":
        return student.split("__")[0]  # "<student>__<assignment>" when the tree held several assignments
    return student


def entry_variant(rubric: Rubric, entry) -> Variant | None:
    """A batch entry's variant, from the id its LMS gave the student (None without [variants])."""
    if rubric.variants is None:
        return None
    return replace(variant_of(rubric, variant_id(entry.student, entry.source)), student=entry.student)
