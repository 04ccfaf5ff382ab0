"""A batch's confirmations: a submission whose grading stopped a case by a guess, graded again at idle priority.

A pool worker grades in runner/confirm.DEFER mode: a case the endless watch stopped early (or a clock's
case_timeout or import_timeout) is left as it is and the worker says so (worker.grade_started's third
value). The pool then hands the submission to its confirmer: processes of the same kind (warm, ended with the
grading process), in confirm.CONFIRMING mode, that grade it again whole, in fresh children with the same sandbox,
with no early stop and each case timed by the CPU it uses; that report is the submission's. Two confirm at once
while the workers grade (BESIDE: the second warmed when the first starts), one a CPU once only confirmations are
left: what is left of them then spreads over the CPUs the workers freed, where one confirmer did the rest of a
late one alone, and another after it.
The confirmers run at SCHED_IDLE, and so do the children they start: they take only CPU the workers and the
grading process leave, and once every submission is graded and only confirmations are left, the pool raises them
and their children to normal priority (`hurry`). Where the workers are fewer than the CPUs the grader may use,
the confirmers keep off the CPUs the workers hold slots on (runner/same_cpu.held_by: the least-held slot was at
times the worker's own CPU, when other graders held the spare CPU's first slots): a one-worker batch on two
cores confirms on the other one, and there the workers guess at a case's look, leaving one-time work to the
confirmer (runner/confirm.one_time: the time they gave it was theirs, spent on every endless loop too). Even
there they stay at idle priority until the hurry: at normal priority they took from the grading process, which
shares that CPU (storing rows, writing pages): a one-worker batch of 1,000 with 1% endless took +12.1% and +20.7%
of the wall with the confirmer at normal priority, +8.3% and +13.7% at idle (benchmarks/endless_cost.py --count
1000 --repeats 2, load 0.1-3). At the hurry they may use every CPU again. Where the grader may not raise a
priority again (no CAP_SYS_NICE), they run at normal priority throughout. Their verdicts are the same at any
priority: CPU time decides. A confirmer process that dies fails the confirmations it had (their first reports
stand); the next ones get fresh processes.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from autograder.runner import confirm
from autograder.batch.confirm_trace import trace
from autograder.runner.cleanup import children_of, tree
from autograder.runner.endless import threads
from autograder.runner.same_cpu import held_by

BESIDE = 2  # confirmations at once while the workers grade (Confirmer.width)
AUTOGROUP_IDLE = "19"  # the nice of a confirmation's sessions' autogroups while the confirmer is idle
_LOWERING = threading.Event()  # set while this confirmer process runs a confirmation


def confirming(fn, name: str, *args):
    """In the confirmer: `fn(*args)`, its beginning and end traced, its children's sessions lowered meanwhile."""
    trace("began", name)
    if not _LOWERING.is_set() and not getattr(confirming, "thread", None):
        confirming.thread = threading.Thread(target=_lower_sessions, name="lower-sessions", daemon=True)
        confirming.thread.start()
    _LOWERING.set()
    try:
        return fn(*args)
    finally:
        _LOWERING.clear()
        trace("ended", name)


def _lower_sessions() -> None:
    """While this confirmer is at idle priority and confirms: every new session of its process tree (each
    sandboxed child has one: bwrap --new-session, the zygote's setsid) at autogroup nice 19, every 50 ms. Where
    the kernel groups by session (autogroup), SCHED_IDLE is idle only within its group: a child in a session of
    its own took 62-65% of a CPU against a normal process of the grading process's session (0% in the same
    session; 1-2% with its autogroup at nice 19), so a confirmation's looping case took the grading process's
    CPU half and more. `normal` sets them back at the hurry; this thread stops once the confirmer is no longer
    idle. It runs at normal priority itself (a walk of the tree, 50 ms apart): at idle priority, the very child it
    is to lower (its group at full weight) would starve it."""
    main = threading.main_thread().native_id
    try:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except OSError:
        pass
    lowered: set[int] = {os.getsid(0)}  # sessions (an autogroup is a session's); never the grading process's
    while _idle(main):
        if _LOWERING.wait(1.0):
            for pid in tree(os.getpid()):
                try:
                    sid = os.getsid(pid)  # a child forked into its parent's session may setsid after: looked at again
                except OSError:
                    continue
                if sid not in lowered and _idle(main):
                    lowered.add(sid)
                    _autogroup(pid, AUTOGROUP_IDLE)
            time.sleep(0.05)


def _idle(tid: int) -> bool:
    try:
        return os.sched_getscheduler(tid) == os.SCHED_IDLE
    except OSError:
        return False


def _autogroup(pid: int, nice: str) -> None:
    """The nice of the autogroup of `pid`'s session, where that session is not this process's (the grading
    process's and the batch's: never changed here)."""
    try:
        if os.getsid(pid) == os.getsid(0):
            return
        with open(f"/proc/{pid}/autogroup", "w", encoding="ascii") as f:
            f.write(nice)
    except OSError:  # no autogroup, not ours to change, or rate-limited without CAP_SYS_ADMIN: left as it is
        pass


def start_confirmer(slots, taken, grade_one, rubric: dict, parent: int | None = None, hurried=None) -> None:
    """The confirmer's initializer: a worker's (worker.start_worker), confirming, at idle priority until the pool
    hurries (`hurried`, shared: a process started or starting then is at normal priority)."""
    from autograder.batch.worker import start_worker

    idle()
    off_workers(parent)
    if hurried is not None and hurried.value:
        normal(os.getpid())
    start_worker(slots, taken, grade_one, rubric, parent)
    confirm.set_mode(confirm.CONFIRMING)


def idle() -> bool:
    """This thread, and what it starts from now on, at SCHED_IDLE, where the grader may raise it back later
    (CAP_SYS_NICE: tried first on a thread of its own); else left at normal priority, which a confirmation
    stuck at idle priority on a busy machine would need. Whether it is idle now."""
    import threading

    def can_return(said: list) -> None:
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            said.append(True)
        except (AttributeError, OSError):
            pass

    said: list = []
    trial = threading.Thread(target=can_return, args=(said,))
    trial.start()
    trial.join()
    if said:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    return bool(said)


def off_workers(parent: int | None) -> None:
    """This thread, and what it starts from now on, off the CPUs the batch's workers (the grading process's other
    children, or its fork server's) hold slots on (runner/same_cpu.py), where that leaves any: the confirmer's CPU
    is then one the workers leave, whoever else holds slots on the machine (other graders, tests). Left to
    same_cpu's least-held slot, it was at times the worker's own CPU, where at idle priority it got only what the
    worker left while the spare CPU stood idle. One such CPU: it runs there unpinned by a slot (same_cpu pins only
    among two or more)."""
    if parent is None or not hasattr(os, "sched_setaffinity"):
        return
    try:
        mine = os.sched_getaffinity(0)
        kids = children_of(parent)  # the workers, or the pool's fork server and its workers (fork_server.py)
        theirs = held_by({*kids, *(pid for kid in kids for pid in children_of(kid))} - {os.getpid()})
        if mine - theirs and mine & theirs:
            os.sched_setaffinity(0, mine - theirs)
        trace("confirmer", f"cpus={','.join(map(str, sorted(os.sched_getaffinity(0))))}"
                           f";workers={','.join(map(str, sorted(theirs)))}")
    except OSError:
        pass


def normal(pid: int, cpus: set[int] | None = None) -> None:
    """Every thread of the process tree under `pid` back to normal priority, where the grader may, and onto
    `cpus` (where given)."""
    for thread in threads(pid):
        tid = int(thread.rsplit("/", 1)[1])
        try:
            os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
            os.setpriority(os.PRIO_PROCESS, tid, 0)
        except (AttributeError, OSError):
            pass
        try:
            if cpus:
                os.sched_setaffinity(tid, cpus)
        except (AttributeError, OSError):
            pass
    for one in tree(pid):  # their sessions' autogroups back from the confirmer's idle nice (_lower_sessions)
        _autogroup(one, "0")


class Confirmer:
    """The processes confirming submissions, started on the first submission that needs it: BESIDE while the
    workers grade, on the CPUs they leave; once they are done (`hurry`), one a CPU, each started when a
    confirmation would otherwise wait."""

    def __init__(self, grade_one, fields: dict, workers: int):
        self.grade_one, self.fields = grade_one, fields
        usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        self.spare = workers < usable  # a CPU the workers leave: they guess at a case's look (confirm.one_time)
        self.cpus = max(1, usable)
        self.executor: ProcessPoolExecutor | None = None
        self.hurried = False
        self.shared_hurried = None  # the initializer's view of `hurried`

    def width(self) -> int:
        """How many confirmations may run at once: BESIDE while the workers grade (sharing the CPU they leave:
        no sooner done in all, but what is left of them when the workers are done is in as many processes, and
        spreads over the CPUs then), one a CPU once only confirmations are left."""
        return self.cpus if self.hurried else min(BESIDE, self.cpus)

    def submit(self, fn, *args) -> Future:
        try:
            return self._submit(fn, *args)
        except BrokenProcessPool:  # a confirmer process died: its confirmations failed; fresh ones for the next
            # (raised out of here, the pool took it for the worker's death: a crash row for the next guess)
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
            return self._submit(fn, *args)

    def _submit(self, fn, *args) -> Future:
        if self.executor is None:
            context = multiprocessing.get_context("spawn")
            slots, taken = context.RawArray("q", self.cpus), context.Value("i", 0)
            self.shared_hurried = context.RawValue("b", self.hurried)
            self.executor = ProcessPoolExecutor(max_workers=self.cpus, mp_context=context,
                                                initializer=start_confirmer,
                                                initargs=(slots, taken, self.grade_one, self.fields, os.getpid(),
                                                          self.shared_hurried))
            for _ in range(1, self.width()):  # the others warm now, while the spare CPU has time for it
                self.executor.submit(int)
        future = self.executor.submit(fn, *args)  # a process more only where none is idle (spawn: on demand)
        if self.hurried:
            self.hurry()
        return future

    def hurry(self) -> None:
        """Nothing else of the batch is left: the confirmations at normal priority from now on, one a CPU."""
        self.hurried = True
        if self.shared_hurried is not None:
            self.shared_hurried.value = True
        cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        for process in list((getattr(self.executor, "_processes", None) or {}).values()):
            if process.pid:
                normal(process.pid, cpus)  # off the workers' CPUs no more: they are done

    def shutdown(self, now: bool = False) -> None:
        if self.executor is None:
            return
        if now:
            processes = list((getattr(self.executor, "_processes", None) or {}).values())
            self.executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=5)
        else:
            self.executor.shutdown(wait=True)
