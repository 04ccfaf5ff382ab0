"""Grade submissions in worker processes, whatever one of them does.

Each worker grades whole submissions, and has its next one handed over ahead (AHEAD per worker), so it
never waits for the parent to store the last. Each says in a shared array which job it has started
(worker.grade_started). A worker that dies (killed, out of memory, os._exit) breaks the whole pool and
fails every job handed over; those not yet started go back to the queue, and the started ones, at most
`workers`, are the suspects: after a break the pool is rebuilt, the suspects are retried one at a time,
and only one that kills its worker on its own gets a crash row. Every job is reported to `on_done`
exactly once, in the parent process.

Workers start warm (worker.start_worker: the kit imported, the sandbox probed, its zygote started),
and the first pool's start overlaps what the caller prepares meanwhile (the goldens).
Workers end with the grading process however it dies (SIGKILL, the OOM killer): each asks the kernel
for SIGKILL on its parent's death (runner/parent_death.py), which is sent when the thread that started
it ends: the one calling grade_parallel, which waits for them.

A submission whose grading stopped a case by a guess (the endless watch, or a clock) is graded again by
the confirmer (confirmer.py: one process beside the workers, no guess, CPU-timed cases), and that report is
the one given to `on_done`, when it comes; a confirmer that fails leaves the first report. After a Ctrl-C, the
submissions not yet confirmed are not reported: the next run grades them.
"""
from __future__ import annotations

import itertools
import multiprocessing
import os
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from autograder.config import Rubric
from autograder.report.model import Report
from autograder.variants.model import Variant
from autograder.batch.confirm_trace import trace, trace_waits
from autograder.batch import early_server, fork_server
from autograder.batch.confirmer import Confirmer, confirming
from autograder.batch.sigint import sigint_blocked, sigint_deferred
from autograder.batch.worker import GradeOne, grade_job, grade_started, rubric_fields, start_worker

STOP_WAIT = 5.0  # seconds, after a Ctrl-C, for the results the stopped workers had sent
AHEAD = 1  # jobs handed over per worker beyond the one it grades: ready the moment it finishes
WORKER_DIED = ("the grading process died while grading this submission "
               "(killed, out of memory, or it exited); nothing was recorded for it")


@dataclass(frozen=True, slots=True)  # a class of 20,000 is queued: ~90 B less each
class Job:
    student: str
    path: str
    variant: Variant | None = None   # the student's variant ([variants]), graded on the course's rubric


OnDone = Callable[[Job, "Report | None", "str | None"], None]


def grade_parallel(jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
                   on_done: OnDone, meanwhile: Callable[[], None] | None = None) -> None:
    """Grade every job; call on_done(job, report, None) or on_done(job, None, why) for each.
    meanwhile: called once, while the first pool's workers (or their server) get ready, before any job is handed
    over."""
    pending = deque(jobs)
    fields = rubric_fields(rubric)
    if not pending:
        if meanwhile is not None:
            meanwhile()
        return
    confirmer = _Confirming(Confirmer(grade_one, fields, workers), grade_one, fields)
    try:
        while pending:
            in_flight = _run_pool(pending, min(workers, len(pending)), grade_one, fields, on_done, confirmer,
                                  meanwhile)
            meanwhile = None
            if len(in_flight) == 1:
                on_done(in_flight[0], None, WORKER_DIED)
            elif in_flight:  # any of them may have killed the pool: try each alone
                for job in in_flight:
                    if _run_pool(deque([job]), 1, grade_one, fields, on_done, confirmer):
                        on_done(job, None, WORKER_DIED)
        trace("workers-done")
        confirmer.confirmer.hurry()  # only confirmations are left: at normal priority, one a CPU
        confirmer.hand_over()
        while confirmer.futures:
            done, _ = wait(confirmer.futures, return_when=FIRST_COMPLETED)
            with sigint_deferred():
                for job, report, why in confirmer.results(done):
                    on_done(job, report, why)
    except BaseException:
        confirmer.confirmer.shutdown(now=True)
        raise
    confirmer.confirmer.shutdown()


class _Confirming:
    """The confirmations under way: future -> (the job, its first report and why); and those waiting for a
    confirmer process (handed over as one is free: Confirmer.width), in the order they were asked for."""

    def __init__(self, confirmer: Confirmer, grade_one: GradeOne, fields: dict):
        self.confirmer, self.grade_one, self.fields = confirmer, grade_one, fields
        self.futures: dict[Future, tuple[Job, Report | None, str | None]] = {}
        self.waiting: deque[tuple[Job, Report | None, str | None]] = deque()

    def add(self, job: Job, report: Report | None, why: str | None) -> None:
        trace("asked", job.student)
        self.waiting.append((job, report, why))
        self.hand_over()

    def hand_over(self) -> None:
        """The waiting confirmations to the confirmer, as many as may run at once."""
        while self.waiting and len(self.futures) < self.confirmer.width():
            job, report, why = self.waiting.popleft()
            future = self.confirmer.submit(confirming, grade_job, job.student, self.grade_one, job.path,
                                           job.student, self.fields, job.variant)
            self.futures[future] = (job, report, why)

    def results(self, done) -> list[tuple]:
        """(job, report, why) of each finished confirmation (where it failed, the first grading's); the next
        waiting ones handed over."""
        finished = []
        for future in [f for f in done if f in self.futures]:
            job, report, why = self.futures.pop(future)
            try:
                confirmed, said = future.result()
            except BaseException:  # noqa: BLE001 - a broken confirmer: the guess stands, nothing is lost
                confirmed, said = None, None
            finished.append((job, confirmed, said) if confirmed is not None else (job, report, why))
        self.hand_over()
        return finished


class _Pool:
    """A process pool whose workers each say, in a shared array, which job they have started."""

    def __init__(self, width: int, grade_one: GradeOne, fields: dict, spare_cpu: bool = False):
        # the workers forked from a server of the pool's own that imported the kit once (fork_server.py; their
        # parent, that they die with, is the server), or each spawned
        with sigint_blocked():  # the server and the workers are born deaf to Ctrl-C
            self.server, parent = fork_server.started(early_server.take())
        context = fork_server.Context(self.server) if self.server else multiprocessing.get_context("spawn")
        self.slots = context.RawArray("q", width)   # per worker: the seq of the job it started (0: none yet)
        self.taken = context.Value("i", 0)          # how many workers have taken a slot
        self.executor = ProcessPoolExecutor(max_workers=width, mp_context=context, initializer=start_worker,
                                            initargs=(self.slots, self.taken, grade_one, fields, parent, spare_cpu))
        self.width = width

    def start(self) -> None:
        """Every worker started: they warm from now on. Forked from a server, a start waits until the server has
        imported the kit."""
        with sigint_blocked():
            for _ in range(self.width):  # each submit starts a worker (spawned lazily)
                self.executor.submit(int)

    def start_beside(self, meanwhile: Callable[[], None] | None) -> None:
        """start(), and what the caller prepares meanwhile done while the workers (or their server) get ready:
        first where the workers wait for a server still importing (a start would only wait), after the start
        where they are spawned (each then imports on its own)."""
        if self.server is None:
            self.start()
        if meanwhile is not None:
            meanwhile()
        if self.server is not None:
            self.start()

    def close(self) -> None:
        """The fork server ended, once the workers are (or are being) stopped."""
        if self.server is not None:
            self.server.stop()

    def started(self) -> set[int] | None:
        """The seqs of the jobs the workers have started; None when that can't be told (a worker past its slots)."""
        with self.taken.get_lock():
            if self.taken.value > len(self.slots):
                return None
        return set(self.slots[:])


def _run_pool(pending: deque[Job], width: int, grade_one: GradeOne, fields: dict, on_done: OnDone,
              confirming: _Confirming, meanwhile: Callable[[], None] | None = None) -> list[Job]:
    """Grade from `pending` until it is empty ([]) or the pool breaks (the jobs then started)."""
    pool = _Pool(max(1, width), grade_one, fields, spare_cpu=confirming.confirmer.spare)
    try:
        return _graded(pool, pending, width, grade_one, fields, on_done, confirming, meanwhile)
    finally:
        pool.close()


def _graded(pool: _Pool, pending: deque[Job], width: int, grade_one: GradeOne, fields: dict, on_done: OnDone,
            confirming: _Confirming, meanwhile: Callable[[], None] | None) -> list[Job]:
    running: dict[Future, tuple[Job, int]] = {}
    broken: list[tuple[Job, int]] = []
    seqs = itertools.count(1)
    try:
        pool.start_beside(meanwhile)
        _fill(pool.executor, pending, running, width, broken, grade_one, fields, seqs)
        while running:
            done, _ = wait({*running, *confirming.futures}, return_when=FIRST_COMPLETED)
            # the idle workers get their next submissions first: storing these (the feedback pages,
            # their pictures) then runs while they grade, not while they wait. A Ctrl-C meanwhile (or
            # from a submission just started) waits until they are stored: none is graded twice
            with sigint_deferred():
                finished = _results(done, running, broken, confirming) + confirming.results(done)
                _fill(pool.executor, pending, running, width, broken, grade_one, fields, seqs)
                for job, report, why in finished:
                    on_done(job, report, why)
    except KeyboardInterrupt:  # Ctrl-C: stop the workers now, keeping what they had sent back
        _stop(pool.executor)
        wait(running, timeout=STOP_WAIT)
        for job, report, why in _results([f for f in running if f.done() and not f.cancelled()], running, [], None):
            on_done(job, report, why)
        raise
    except BaseException:  # a failing on_done: stop the workers now
        _stop(pool.executor)
        raise
    trace_waits([p.pid for p in (getattr(pool.executor, "_processes", None) or {}).values() if p.pid])
    pool.executor.shutdown(wait=True, cancel_futures=True)
    return _suspects(broken, pool.started(), pending)


def _results(done, running: dict[Future, tuple[Job, int]], broken: list[tuple[Job, int]],
             confirming: _Confirming | None) -> list[tuple]:
    """(job, report, why) of each finished future, taken out of `running`; those the pool's break failed
    go to `broken` instead, those a guess stopped a case of to `confirming` (without it: dropped)."""
    finished = []
    for future in [f for f in done if f in running]:
        job, seq = running.pop(future)
        try:
            report, why, guessed = future.result()
            if guessed:  # without a confirmer (a Ctrl-C): not stored, graded again on the next run
                if confirming is not None:
                    confirming.add(job, report, why)
                continue
        except BrokenProcessPool:
            broken.append((job, seq))
            continue
        except Exception as err:  # e.g. a report that could not be sent back
            report, why = None, f"grading crashed: {type(err).__name__}: {err}"
        finished.append((job, report, why))
    return finished


def _suspects(broken: list[tuple[Job, int]], started: set[int] | None, pending: deque[Job]) -> list[Job]:
    """Of the jobs a broken pool failed, those started (one of them killed it); the others, never started,
    go back to the front of `pending` in their order. When none was started (a worker died before its
    first job) or that can't be told, every one is a suspect, as if all had started."""
    broken.sort(key=lambda js: js[1])
    suspects = [job for job, seq in broken if started is not None and seq in started]
    if not suspects:
        return [job for job, _ in broken]
    pending.extendleft(reversed([job for job, seq in broken if seq not in started]))
    return suspects


def _fill(pool: ProcessPoolExecutor, pending: deque[Job], running: dict[Future, tuple[Job, int]], width: int,
          broken: list, grade_one: GradeOne, fields: dict, seqs: Iterator[int]) -> None:
    """Hand jobs over from `pending` until each of the `width` workers has AHEAD more than the one it
    grades (none once the pool has broken)."""
    while pending and len(running) < width * (1 + AHEAD) and not broken:
        job, seq = pending.popleft(), next(seqs)
        try:
            running[pool.submit(grade_started, seq, grade_one, job.path, job.student, fields, job.variant)] = (job, seq)
        except BrokenProcessPool:  # it broke before this job started: not a suspect
            pending.appendleft(job)
            return


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what hasn't started and end the workers mid-submission."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
