"""What one batch worker spends on each submission, for benchmarks/profile_batch.py: its own CPU, its sandboxed
children's, and of both what the proofs of named mistakes took (diagnosis/repair: LibCST's text work and the
copy's conversation here, the copy's run in a child there).

The children's CPU is what the worker reaped (a bubblewrap per child) plus what its zygote says, at each reap,
that it and the submissions it reaped have used (runner/levels/zygote/zygote.py): a zygote's forks are not the
worker's children. profiled_grade is a top-level function: a spawned worker imports it by this module's name.
"""
from __future__ import annotations

import cProfile
import json
import os
from pathlib import Path

LOG_ENV = "AUTOGRADER_PROFILE_BATCH_DIR"  # where each worker writes its lines and its cProfile stats
PROFILE_ENV = "AUTOGRADER_PROFILE_BATCH_CPROFILE"  # "1": the workers run under cProfile too; "cpu": on CPU time
_PROFILE: list[cProfile.Profile] = []
_PROOFS = {"self": 0.0, "children": 0.0, "count": 0}  # this worker's proofs so far


def own() -> float:
    t = os.times()
    return t.user + t.system


def children() -> float:
    """CPU of the sandboxed children so far: reaped by this process, or by its zygotes."""
    from autograder.runner import levels

    t = os.times()
    return t.children_user + t.children_system + sum(z.cpu for z in getattr(levels.current(), "zygotes", {}).values())


def _counted_prove():
    """diagnosis.repair.prove, its CPU added to _PROOFS (grading imports it by name at each use)."""
    from autograder.diagnosis import repair

    if getattr(repair.prove, "counted", False):
        return
    real = repair.prove

    def prove(*args, **kwargs):
        self0, children0 = own(), children()
        try:
            return real(*args, **kwargs)
        finally:
            _PROOFS["self"] += own() - self0
            _PROOFS["children"] += children() - children0
            _PROOFS["count"] += 1
    prove.counted = True
    repair.prove = prove


_GC = {"cpu": 0.0, "started": 0.0, "timed": False}  # the collector's CPU in this worker so far (gc.callbacks)


def _timed_collector() -> None:
    """The collector's CPU added to _GC from now on (once a process)."""
    import gc
    import time

    def timed(phase, _info):
        if phase == "start":
            _GC["started"] = time.thread_time()
        else:
            _GC["cpu"] += time.thread_time() - _GC["started"]
    if not _GC["timed"]:
        gc.callbacks.append(timed)
        _GC["timed"] = True


def profiler(cpu: bool) -> cProfile.Profile:
    """cProfile on the wall clock (its default), or on this thread's CPU time: then a worker's wait for its child
    (a write that wakes it, a poll) counts only the CPU it costs, not the child's time."""
    import time

    return cProfile.Profile(time.thread_time) if cpu else cProfile.Profile()


def profiled_grade(path: Path, *, rubric, name: str):
    """worker.grade_hidden, with the worker's CPU, its children's and its proofs' noted in a line of its log."""
    from autograder.batch.worker import grade_hidden

    folder = Path(os.environ[LOG_ENV])
    profiling = os.environ.get(PROFILE_ENV) in ("1", "cpu")
    if not _PROFILE:
        _PROFILE.append(profiler(os.environ.get(PROFILE_ENV) == "cpu"))
    _counted_prove()
    _timed_collector()
    proofs0 = dict(_PROOFS)
    self0, children0, gc0 = own(), children(), _GC["cpu"]
    if profiling:
        _PROFILE[0].enable()
    try:
        return grade_hidden(path, rubric=rubric, name=name)
    finally:
        if profiling:
            _PROFILE[0].disable()
        line = {"student": name, "pid": os.getpid(), "self": own() - self0, "children": children() - children0,
                "gc": _GC["cpu"] - gc0,
                **{f"proofs_{k}": _PROOFS[k] - proofs0[k] for k in _PROOFS}}
        with open(folder / f"worker-{os.getpid()}.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        if profiling:
            _PROFILE[0].dump_stats(folder / f"worker-{os.getpid()}.pstats")
