"""Grade on a running dask.distributed cluster (`--executor dask://HOST:PORT`; pip install
'backprop-kit[dask]' on this machine and on every worker, with the same kit version).

Each job travels as its submission's bytes (a folder as a tar), so workers need no shared disk.
A worker grades it exactly as the local pool does (worker.grade_job: the student's code in the
sandboxed child the worker starts), and sends back the Report. A worker that dies while grading
gets the job's crash row, as in the local pool; nothing is retried behind the kit's back.
"""
from __future__ import annotations

import io
import os
import tarfile
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from autograder import __version__
from autograder.batch.pool import WORKER_DIED, Job, OnDone
from autograder.batch.worker import GradeOne, grade_job, rubric_fields
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.scratch import scratch

IN_FLIGHT_PER_THREAD = 4


class ClusterError(UserError):
    """A cluster that can't grade: no scheduler there, no workers, another kit version. One line."""  # jobs handed to the scheduler ahead of time, per worker thread


@dataclass(frozen=True)
class DaskCluster:
    address: str  # dask://HOST:PORT or tcp://HOST:PORT
    connect_seconds: float = 10.0  # how long a scheduler that doesn't answer is tried before the one line

    def grade(self, jobs: Iterable[Job], *, workers: int, grade_one: GradeOne, rubric: Rubric,
              on_done: OnDone, meanwhile: Callable[[], None] | None = None) -> None:
        if meanwhile is not None:
            meanwhile()
        client = _connect(self.address, self.connect_seconds)
        try:
            _check_workers(client, self.address)
            fields = rubric_fields(rubric)
            suspects: list[Job] = []  # in flight on a worker that died: any of them may have killed it
            _grade_on(client, deque(jobs), grade_one, fields, on_done, suspects, window=IN_FLIGHT_PER_THREAD)
            for job in suspects:  # each alone now: only one that kills its worker on its own gets the crash row
                _grade_on(client, deque([job]), grade_one, fields, on_done, None, window=1)
        finally:
            client.close()


def _connect(address: str, seconds: float):
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--executor dask:// needs dask.distributed: pip install 'backprop-kit[dask]'") from None
    target = "tcp://" + address.split("://", 1)[1]
    try:
        return Client(target, timeout=f"{seconds}s", set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise ClusterError(f"--executor {address}: no dask scheduler answers there ({err})") from None


def _check_workers(client, address: str) -> None:
    versions = client.run(kit_version)
    if not versions:
        raise ClusterError(f"--executor {address}: the cluster has no workers")
    wrong = sorted(w for w, v in versions.items() if v != __version__)
    if wrong:
        raise ClusterError(f"--executor {address}: worker(s) {', '.join(wrong)} run another version of the kit "
                            f"than this one ({__version__}); install the same on every worker")


def _grade_on(client, pending: deque[Job], grade_one: GradeOne, fields: dict, on_done: OnDone,
              suspects: list[Job] | None, *, window: int) -> None:
    """Grade `pending`, at most `window` jobs per worker thread handed over at once. A job lost
    with its worker goes to `suspects` to be tried again alone, or (suspects None) gets its row. The
    retry's key is not the first try's: the scheduler may still hold that one, failed, and answer with it."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    threads = max(1, sum(client.nthreads().values()))
    running: dict[str, Job] = {}

    def submit_more() -> list:
        futures = []
        while pending and len(running) < threads * window:
            job = pending.popleft()
            future = client.submit(grade_packed, grade_one, pack(Path(job.path)), Path(job.path).name,
                                   job.student, fields, job.variant, pure=False, retries=0,
                                   key=f"grade-{'alone-' if suspects is None else ''}{job.student}-{id(job)}")
            running[future.key] = job
            futures.append(future)
        return futures

    first = submit_more()
    if not first:
        return
    done = as_completed(first, loop=client.loop)
    try:
        for future in done:
            job = running.pop(future.key)
            try:
                report, why = future.result()
            except (KilledWorker, FutureCancelledError):
                if suspects is not None:
                    suspects.append(job)
                    done.update(submit_more())
                    continue
                report, why = None, WORKER_DIED
            except Exception as err:  # e.g. a report that could not be sent back
                report, why = None, f"grading crashed: {type(err).__name__}: {err}"
            on_done(job, report, why)
            done.update(submit_more())
    except BaseException:  # Ctrl-C or a failing on_done: drop what the cluster still has of ours
        client.cancel(list(done.futures))
        raise


def kit_version() -> str:
    """Run on each worker: the kit version it has."""
    return __version__


def pack(path: Path) -> bytes:
    """A submission as bytes: a file's own, or a folder as an uncompressed tar (links kept as links)."""
    if not path.is_dir():
        return path.read_bytes()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        tar.add(path, arcname=".", recursive=True)
    return b"TAR:" + buffer.getvalue()


def grade_packed(grade_one: GradeOne, data: bytes, name: str, student: str, fields: dict, variant=None):
    """Run on a worker: the submission back on its disk under its own name, then graded (against the
    student's variant, with [variants])."""
    with scratch("autograder-dask-") as tmp:
        path = Path(tmp) / (name or "submission")
        if data.startswith(b"TAR:"):
            path.mkdir()
            with tarfile.open(fileobj=io.BytesIO(data[4:]), mode="r") as tar:
                extra = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                tar.extractall(path, **extra)
        else:
            path.write_bytes(data)
        os.chmod(tmp, 0o755)
        return grade_job(grade_one, str(path), student, fields, variant)
