"""Where a class's submissions are graded: one value, chosen by `--executor`, that grade_batch
hands its jobs to. Each reports every job to `on_done` exactly once, in the calling process.

- `local` (the default): the embedded process pool on this machine (pool.py).
- `dask://HOST:PORT`: a running dask.distributed cluster (the `dask` extra; dask_executor.py).

Past one machine the kit schedules nothing itself: shards (shard.py) for a batch scheduler, or
an existing cluster's scheduler here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from autograder.batch.pool import Job, OnDone, grade_parallel
from autograder.batch.worker import GradeOne
from autograder.config import Rubric
from autograder.errors import UserError


class ExecutorError(UserError):
    """An --executor that can't be used: one line."""


class Executor(Protocol):
    def grade(self, jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
              on_done: OnDone, meanwhile: Callable[[], None] | None = None) -> None:
        """meanwhile: what the caller prepares before any job runs (the goldens), called once, while the
        executor starts up where it can."""


@dataclass(frozen=True)
class LocalPool:
    """The embedded process pool: `workers` processes on this machine."""

    def grade(self, jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
              on_done: OnDone, meanwhile: Callable[[], None] | None = None) -> None:
        grade_parallel(jobs, workers=workers, grade_one=grade_one, rubric=rubric, on_done=on_done, meanwhile=meanwhile)


LOCAL = LocalPool()


def executor_from(text: str | None) -> Executor:
    """--executor's value: 'local' (or nothing) or 'dask://HOST:PORT'."""
    if not text or text == "local":
        return LOCAL
    if text.startswith(("dask://", "tcp://")):
        from autograder.batch.dask_executor import DaskCluster

        return DaskCluster(text)
    raise ExecutorError(f"--executor {text!r}: give local (the default) or dask://HOST:PORT "
                        "(a running dask.distributed scheduler)")
