"""Grade submissions in worker processes, whatever one of them does.

Each worker grades whole submissions. A worker that dies (killed, out of
memory, os._exit) breaks the whole pool and fails every submission in flight,
so at most `workers` are in flight at once; after a break the pool is rebuilt,
the submissions that were in flight are retried one at a time, and only one
that kills its worker on its own gets a crash row. Every job is reported to
`on_done` exactly once, in the parent process.
"""
from __future__ import annotations

import multiprocessing
import signal
import threading
from collections import deque
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from autograder.config import Rubric
from autograder.report.model import Report
from autograder.variants.model import Variant
from autograder.batch.worker import GradeOne, grade_job, ignore_sigint, rubric_fields

WORKER_DIED = ("the grading process died while grading this submission "
               "(killed, out of memory, or it exited); nothing was recorded for it")


@dataclass(frozen=True)
class Job:
    student: str
    path: str
    variant: Variant | None = None   # the student's variant ([variants]), graded on the course's rubric


OnDone = Callable[[Job, "Report | None", "str | None"], None]


def grade_parallel(jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
                   on_done: OnDone) -> None:
    """Grade every job; call on_done(job, report, None) or on_done(job, None, why) for each."""
    pending = deque(jobs)
    fields = rubric_fields(rubric)
    while pending:
        in_flight = _run_pool(pending, min(workers, len(pending)), grade_one, fields, on_done)
        if len(in_flight) == 1:
            on_done(in_flight[0], None, WORKER_DIED)
        elif in_flight:  # any of them may have killed the pool: try each alone
            for job in in_flight:
                if _run_pool(deque([job]), 1, grade_one, fields, on_done):
                    on_done(job, None, WORKER_DIED)


def _run_pool(pending: deque[Job], width: int, grade_one: GradeOne, fields: dict, on_done: OnDone) -> list[Job]:
    """Grade from `pending` until it is empty ([]) or the pool breaks (the jobs then in flight)."""
    pool = ProcessPoolExecutor(max_workers=max(1, width), mp_context=multiprocessing.get_context("spawn"),
                               initializer=ignore_sigint)
    running: dict[Future, Job] = {}
    broken: list[Job] = []
    try:
        while pending or running:
            _fill(pool, pending, running, width, broken, grade_one, fields)
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            finished = []
            for future in done:
                job = running.pop(future)
                try:
                    report, why = future.result()
                except BrokenProcessPool:
                    broken.append(job)
                    continue
                except Exception as err:  # e.g. a report that could not be sent back
                    report, why = None, f"grading crashed: {type(err).__name__}: {err}"
                finished.append((job, report, why))
            # the idle workers get their next submissions first: storing these (the feedback pages,
            # their pictures) then runs while they grade, not while they wait. A Ctrl-C meanwhile (or
            # from a submission just started) waits until they are stored: none is graded twice
            with _sigint_deferred():
                _fill(pool, pending, running, width, broken, grade_one, fields)
                for job, report, why in finished:
                    on_done(job, report, why)
            if broken and not running:
                break
    except BaseException:  # Ctrl-C or a failing on_done: stop the workers now
        _stop(pool)
        raise
    pool.shutdown(wait=True, cancel_futures=True)
    return broken


def _fill(pool: ProcessPoolExecutor, pending: deque[Job], running: dict[Future, Job], width: int,
          broken: list[Job], grade_one: GradeOne, fields: dict) -> None:
    """Submit jobs from `pending` until `width` are running (none once the pool has broken)."""
    while pending and len(running) < width and not broken:
        job = pending.popleft()
        try:
            with _sigint_blocked():  # submit may start a worker: born deaf to Ctrl-C
                running[pool.submit(grade_job, grade_one, job.path, job.student, fields, job.variant)] = job
        except BrokenProcessPool:  # it broke before this job started: not a suspect
            pending.appendleft(job)
            return


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """A Ctrl-C (SIGINT) that comes meanwhile takes effect at the end, not halfway through: the
    handler is swapped for one that notes it (a block would not do: the pool's own threads take
    the signal then, and Python runs its handler in the main thread all the same)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and callable(old):
        old(signal.SIGINT, None)  # Python's own: KeyboardInterrupt


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT while a worker may be started: the block is inherited, so a Ctrl-C while
    the worker is still importing (before ignore_sigint runs) prints no traceback from it.
    The parent's own Ctrl-C stays pending and arrives the moment the block is lifted."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what hasn't started and end the workers mid-submission."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
