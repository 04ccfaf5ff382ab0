"""What runs inside a batch worker process: grade one whole submission.

Top-level functions only, so a `spawn` worker can import them. The student's
code itself runs one level further down, in the sandboxed child that
grading.grade_path starts.
"""
from __future__ import annotations

import gc
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


def hidden_courses(rubric: Rubric) -> list[tuple[Rubric, list]]:
    """The class's shared case sets, (rubric, cases) per activation; a rubric without a hidden seed fails here,
    once (ConfigError), not once per submission."""
    from autograder.grading import select_cases

    activations = {rubric.activation}
    if rubric.variants is not None and "activation" in rubric.variants.vary:  # the class shares one set per activation
        activations |= set(rubric.variants.activations)
    courses = [replace(rubric, activation=activation) for activation in sorted(activations)]
    return [(course, select_cases(course, include_hidden=True)) for course in courses]


def prepare_hidden(courses: list[tuple[Rubric, list]]) -> None:
    """In the parent, before any worker grades: compute (or load) the goldens of hidden_courses() once,
    rather than in every worker at the same time."""
    from autograder.goldens import GoldenStore

    for course, cases in courses:
        GoldenStore().goldens(cases, activation=course.activation)


def ignore_sigint() -> None:
    """Ctrl-C is the parent's to handle; a worker just gets stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# this worker's slot in its pool's shared array of started jobs (pool.py): (array, index), once started
_SLOT: list = []


def start_worker(slots, taken, grade_one: GradeOne, rubric: dict, parent: int | None = None,
                 spare_cpu: bool = False) -> None:
    """Pool initializer: deaf to Ctrl-C, ended with the grading process `parent` however it dies (its zygote and
    children with it: runner/parent_death.py), a slot of its own in `slots` (where it says which job it has
    started: only those are suspects when a worker dies), and warm before the first job arrives. Never raises: a
    raising initializer would break the pool before any job could start. A case its grading stops by a guess is
    left for the pool's confirmer (runner/confirm.py, batch/confirmer.py); with `spare_cpu` (the confirmer has a CPU
    of its own), at the case's look, with no time for one-time work (confirm.one_time)."""
    ignore_sigint()
    from autograder.runner import confirm

    confirm.set_mode(confirm.DEFER)
    confirm.set_spare_cpu(spare_cpu)
    if parent is not None:
        from autograder.runner.parent_death import dier

        dier(parent)()
    try:
        with taken.get_lock():
            index = taken.value
            taken.value += 1
        if index < len(slots):  # past the end (a worker the pool started again): the parent suspects every job
            _SLOT[:] = [(slots, index)]
        if grade_one is grade_hidden:
            warm_hidden(rubric_from_fields(rubric))
    except Exception:  # noqa: BLE001 - grading the first submission meets the same problem and reports it
        pass
    gc.freeze()  # what warming made (the cases, the goldens, the sandbox level) lives as long as the worker


def warm_hidden(rubric: Rubric) -> None:
    """What grading a first submission pays once per process, paid while the parent still prepares: the
    kit imported, the cases built, the goldens read if the cache has them (never computed here: that is the
    parent's, once) and the sandbox level probed. Where the parent is computing the goldens (seconds), the
    sandbox is started too (at the bubblewrap level with a zygote, the zygote), by running an empty
    submission with no cases exactly as grade_path runs a real one; otherwise the first submission starts
    it, as soon: that run would only cost a child more."""
    from autograder.goldens import GoldenStore, KitError
    from autograder.grading import golden_values, limits_for, select_cases
    from autograder.runner import levels, run_cases
    from autograder.scratch import scratch

    levels.current()
    try:
        golden_values(select_cases(rubric, include_hidden=True), rubric, GoldenStore(compute=False))
        return
    except KitError:  # not cached yet: the parent is computing them
        pass
    with scratch("autograder-warm-") as empty:
        run_cases(Path(empty), [], limits=limits_for(rubric), forbidden=rubric.forbidden_imports,
                  allowed=rubric.allowed_imports)


def grade_started(seq: int, grade_one: GradeOne, path: str, student: str, rubric: dict,
                  variant: Variant | None = None) -> tuple[Report | None, str | None, bool]:
    """grade_job, once this worker's slot says it has started job `seq` (the pool hands over jobs ahead), and
    whether a case was stopped by a guess (left to the pool's confirmer: runner/confirm.py)."""
    from autograder.runner import confirm

    if _SLOT:
        slots, index = _SLOT[0]
        slots[index] = seq
    guesses = confirm.deferred()
    return (*grade_job(grade_one, path, student, rubric, variant), confirm.deferred() > guesses)


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
