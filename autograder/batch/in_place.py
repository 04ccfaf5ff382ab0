"""A batch with one submission to grade grades it in the grading process, as `autograder grade PATH` does.

A rerun after one student's new upload has one job. A pool's worker would cost more than the grading itself:
an interpreter spawned, the kit imported again, the sandbox warmed, the report pickled back, the worker's end
awaited (~0.35 s of CPU and more on the clock). The grading process has the kit imported already, so it grades
that one submission itself, through the same grade_job as a worker (the same crash rows) and the same sandbox:
the student's code runs in the sandboxed child grade_path starts, never in this process; the sandbox's zygote
boots while the caller reads what it needs meanwhile (runner/warm.py). A case stopped early by a guess is
confirmed at once, in place (runner/confirm.py: IN_PLACE, as a single submission's grade): the same verdict.
Only the kit's own grader is graded here (a test's fake grader may kill its process), and only with the local
executor; any other batch goes to the pool.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Sequence

from autograder.batch.pool import Job, OnDone
from autograder.batch.sigint import sigint_deferred
from autograder.batch.worker import GradeOne, grade_hidden, grade_job, rubric_fields
from autograder.config import Rubric

MOST = 1  # jobs graded in place; more go to the pool, whose workers grade them side by side


def suits(jobs: Sequence, grade_one: GradeOne, local: bool) -> bool:
    return 0 < len(jobs) <= MOST and grade_one is grade_hidden and local


class InPlace:
    """The Executor (executors.py) that grades in the calling process."""

    def grade(self, jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
              on_done: OnDone, meanwhile: Callable[[], None] | None = None) -> None:
        jobs = list(jobs)
        if jobs:
            _warm(rubric)
        if meanwhile is not None:
            meanwhile()
        fields = rubric_fields(rubric)
        for job in jobs:
            interrupted: list[bool] = []

            def guarded(path: Path, *, rubric: Rubric, name: str, interrupted=interrupted):
                try:
                    return grade_one(path, rubric=rubric, name=name)
                except KeyboardInterrupt:  # Ctrl-C is the batch's (nothing stored), not this submission's crash
                    interrupted.append(True)
                    raise

            report, why = grade_job(guarded, job.path, job.student, fields, job.variant)
            if interrupted:
                raise KeyboardInterrupt
            with sigint_deferred():  # a Ctrl-C now takes effect once the result is stored, as in the pool
                on_done(job, report, why)


def _warm(rubric: Rubric) -> None:
    """The sandbox's zygote, booting while the caller does its meanwhile (nothing, where the level has none)."""
    from autograder.runner.warm import warm

    try:
        warm(forbidden=rubric.forbidden_imports, allowed=rubric.allowed_imports)
    except Exception:  # noqa: BLE001 - grading meets the same problem and says it in the submission's row
        pass
