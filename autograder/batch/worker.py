"""What runs inside a batch worker process: grade one whole submission.

Top-level functions only, so a `spawn` worker can import them. The student's
code itself runs one level further down, in the sandboxed child that
grading.grade_path starts.
"""
from __future__ import annotations

import signal
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

from autograder.config import Rubric
from autograder.report.model import Report
from autograder.variants.assign import with_variant
from autograder.variants.model import Variant


class GradeOne(Protocol):
    """Grades one submission; must be a top-level (importable) function."""
    def __call__(self, path: Path, *, rubric: Rubric, name: str) -> Report: ...


def grade_hidden(path: Path, *, rubric: Rubric, name: str) -> Report:
    """The default: public and hidden cases, as `autograder grade PATH` does."""
    from autograder.grading import grade_path

    return grade_path(path, rubric=rubric, include_hidden=True, name=name)


def prepare_hidden(rubric: Rubric) -> None:
    """In the parent, before any worker starts: compute (or load) the goldens once, rather
    than in every worker at the same time; a rubric without a hidden seed fails here, once
    (ConfigError), not once per submission."""
    from autograder.goldens import GoldenStore
    from autograder.grading import select_cases

    activations = {rubric.activation}
    if rubric.variants is not None and "activation" in rubric.variants.vary:  # the class shares one set per activation
        activations |= set(rubric.variants.activations)
    for activation in sorted(activations):
        course = replace(rubric, activation=activation)
        GoldenStore().goldens(select_cases(course, include_hidden=True), activation=activation)


def ignore_sigint() -> None:
    """Pool initializer: Ctrl-C is the parent's to handle; a worker just gets stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def rubric_fields(rubric: Rubric) -> dict:
    """The rubric as picklable fields (its points are a read-only mapping, which pickle refuses)."""
    return {**vars(rubric), "points": dict(rubric.points)}


def rubric_from_fields(data: dict) -> Rubric:
    return Rubric(**{**data, "points": MappingProxyType(dict(data["points"]))})


def grade_job(grade_one: GradeOne, path: str, student: str, rubric: dict,
              variant: Variant | None = None) -> tuple[Report | None, str | None]:
    """(report, None), or (None, why) when grading raised: the reason travels as text,
    so an exception that can't be pickled still reaches the parent. variant: the student's, graded
    on the course's rubric (variants/assign.with_variant)."""
    try:
        course = rubric_from_fields(rubric)
        report = grade_one(Path(path), rubric=course if variant is None else with_variant(course, variant), name=student)
    except BaseException as err:  # noqa: B036 - SystemExit from grading code is a crash too
        return None, f"grading crashed: {type(err).__name__}: {err}"
    if not isinstance(report, Report):
        return None, f"grading crashed: it returned {type(report).__name__}, not a Report"
    return report, None
