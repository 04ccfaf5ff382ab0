"""Run a list of cases on a student's package in sandboxed children; every case gets an outcome.

One child runs the cases in order, one at a time: the parent sends a case (with a
fresh nonce) only once it has accepted the previous case's result, and accepts only
the awaited case's line echoing that nonce (protocol.py), so nothing the student's
code writes ahead can pass for a later case's result. A case that times out or takes
the child down costs that case only: the child's whole session is killed and a fresh
child runs the rest. A case still computing far past every case before it is stopped early
(endless.py); a task with a case that timed out has its remaining cases skipped. Such a stop, and a
case_timeout or import_timeout on the clock, is a guess: the submission is run again with no early stop, each
case timed by the CPU it uses (confirm.py), in place or (in a batch) by the pool's confirmer.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from autograder.cases.model import Case
from autograder.config import Rubric
from autograder.runner.levels import Level, current as current_level
from autograder.runner.same_cpu import one_cpu
from autograder.runner.protocol import (
    JOB_PIPE_LOST, RESULT_PIPE_LOST, CaseOutcome, ImportOutcome, Nonces, answer, decode_line, parse_import, read_case,
)
from autograder.runner import confirm
from autograder.runner.clocks import WallClock, WorkClock
from autograder.runner.endless import CONFIRMED, EndlessWatch, watched
from autograder.runner.exits import describe_exit
from autograder.runner.limits import Limits
from autograder.runner.payloads import header, payload
from autograder.runner.sandbox import DEAD, FLOOD, TIMEOUT, Child

MAX_TIMEOUTS_PER_TASK = 1  # then the task's other cases are skipped: its loop would cost each one
DEFAULT_FORBIDDEN: tuple[str, ...] = Rubric.forbidden_imports
DEFAULT_ALLOWED: tuple[str, ...] = Rubric.allowed_imports
PIPE_LOST = {  # the child's exit status when the student's code broke one of its pipes
    RESULT_PIPE_LOST: "closed the grader's result pipe",
    JOB_PIPE_LOST: "closed, replaced or wrote on the grader's job pipe",
}
PIPE_LOST_WHEN = {RESULT_PIPE_LOST: "during this case", JOB_PIPE_LOST: "during this case or the one before"}
FLOODED = ("your code flooded the grader's result pipe {during} (more than the grader reads for one case): "
           "the case fails")


@dataclass
class RunResult:
    imports: ImportOutcome
    outcomes: dict[str, CaseOutcome]     # case id -> outcome, for every case
    sandbox: str = "basic"
    notes: list[str] = field(default_factory=list)
    guessed: tuple[str, ...] = ()  # cases stopped by a guess: the endless watch or a clock (confirm.py), in order


def run_cases(
    student_root: Path,
    cases: list[Case],
    *,
    limits: Limits = Limits(),
    programs_dir: Path | None = None,
    files: Mapping[str, str] | None = None,
    forbidden: Sequence[str] = DEFAULT_FORBIDDEN,
    allowed: Sequence[str] = DEFAULT_ALLOWED,
) -> RunResult:
    """Run `cases` on the `micrograd` package in student_root. files: module -> the name the student knows
    the file by ("engine" -> "hw3.py"), for messages (Prepared.files); programs_dir: another folder of case
    programs. The sandbox level is the best this machine offers, or the one AUTOGRADER_SANDBOX insists on.
    allowed: the installed packages the child may import (the only ones it sees); forbidden: the ones it is
    told it must not. A case stopped early (a guess) is confirmed as the process's confirm.mode() says."""
    level = current_level()
    args = (Path(student_root).resolve(), limits, programs_dir, dict(files or {}), list(forbidden), level,
            [name for name in allowed if name not in forbidden])
    result = _run_once(_Run(*args, confirming=confirm.mode() == confirm.CONFIRMING), cases, limits)
    if result.guessed and confirm.mode() == confirm.IN_PLACE:
        return _run_once(_Run(*args, confirming=True), cases, limits)
    if result.guessed:
        confirm.defer()
    return result


def _run_once(run: "_Run", cases: list[Case], limits: Limits) -> RunResult:
    budget = limits.budget(len(cases), len({c.task for c in cases}))
    run.budget, run.clock = budget, WorkClock(budget) if run.confirming else WallClock(budget)  # clocks.py
    with one_cpu():  # this thread and its children on one CPU: a case's round trip stays on it
        pending = run.one_child(list(cases))  # once even with no cases: the imports are reported
        while pending:
            if run.clock.out():
                run.out_of_budget(pending)
                break
            pending = run.one_child(pending)
    return RunResult(run.imports or ImportOutcome({}), run.outcomes, run.level.name, run.notes(),
                     tuple(c.id for c in cases if c.id in run.guessed))


class _Run:
    def __init__(self, root: Path, limits: Limits, programs_dir, files, forbidden, level: Level, allowed=(),
                 confirming: bool = False):
        self.root, self.limits, self.programs_dir, self.level = root, limits, programs_dir, level
        self.confirming = confirming  # no early stop; cases and the import timed by their CPU (confirm.py)
        self.files, self.forbidden, self.allowed = files, forbidden, list(allowed)
        self.imports: ImportOutcome | None = None
        self.outcomes: dict[str, CaseOutcome] = {}
        self.timeouts: Counter[str] = Counter()
        self.ignored = 0
        self.child_errors: list[str] = []
        self.budget, self.clock = float("inf"), WallClock(float("inf"))  # the submission's budget
        self.stderr_mark = 0                    # the child's stderr before the case under way
        self.start_bytes, self.refused, self.dropped_from = 0, 0, 0  # _count_from: where the counts of a message start
        self.nonces = Nonces(0)                 # the running child's (one_child draws them)
        self.not_run = 0                        # cases the budget left no time for
        self.floods = 0
        self.endless = EndlessWatch(confirm.one_time(limits.one_time_work))  # stops a case far past the others
        self.early_stops: dict[str, str] = {}   # case id -> why it was stopped (early, or by a confirmation's CPU)
        self.guessed: set[str] = set()          # cases a guess stopped (early, or the clock): to confirm

    def _send(self, child: Child, case: Case) -> tuple[str, float]:
        """Send one case with a fresh nonce; (the nonce, when it was sent: its deadline's start)."""
        nonce = self.nonces.take()
        child.send(payload(case) + nonce.encode() + b'"}\n')
        return nonce, time.monotonic()

    def one_child(self, cases: list[Case]) -> list[Case]:
        """Run cases in one child until it finishes, hangs or dies; returns the cases still to run."""
        self.nonces = Nonces(1 + len(cases))  # this child's: the header's, and each case's
        nonce = self.nonces.take()
        job = header(self.root, cases, nonce, self.forbidden, self.allowed, self.limits, self.files)
        child = Child(job, self.limits, programs_dir=self.programs_dir, level=self.level)
        self.endless.new_process()  # its own time for work done once (an import, a self-check)
        try:
            for case in cases:  # while the child starts
                payload(case)
            self._count_from(child)
            imports = self._await_import(child, nonce)
            if not isinstance(imports, ImportOutcome):
                self._import_failed(child, imports, cases)
                return []
            self.imports = self.imports or imports
            sent = self._send(child, cases[0]) if cases else None
            for i, case in enumerate(cases):
                nonce, start = sent
                # what the child writes on stderr from here is this case's (the one before has answered)
                self.stderr_mark = child.stderr_mark()
                raw = self._await_case(child, case, nonce, start)
                if type(raw) is dict:
                    self.endless.answered(time.monotonic() - start)
                    if i + 1 < len(cases):  # at once: the child runs it while this result is parsed
                        sent = self._send(child, cases[i + 1])
                    self.outcomes[case.id] = self._parse(raw, case)
                    continue
                if raw == TIMEOUT and self.clock.out():
                    child.kill()
                    self.out_of_budget(cases[i:])
                    return []
                self.outcomes[case.id] = self._lost(child, raw, case)
                return self._skip_timed_out(cases[i + 1:])
            child.close_input()  # no more cases: the child reads the end of its input and ends
            return []
        finally:
            child.kill(wait=False)  # no status kept: a forked child's namespace is torn down while this goes on
            self.ignored += child.dropped_long

    def _await_case(self, child: Child, case: Case, nonce: str, start: float):
        """The case's answer, TIMEOUT, DEAD or FLOOD. A case still computing long past every case
        before it (endless.py) is stopped then, as a timeout that says so."""
        self._count_from(child)  # the flood bounds count across the case's waits
        wait = lambda until: self._await(child, until, answer, case.id, nonce)  # noqa: E731
        if isinstance(self.clock, WorkClock):  # a confirmation: no guess
            raw, through = self.clock.case(child.proc.pid, self.limits.case_timeout, wait, TIMEOUT)
            if through:
                self.early_stops[case.id] = CONFIRMED.format(seconds=self.limits.case_timeout)
            return raw
        deadline = min(start + self.limits.case_timeout, self.clock.end)
        raw, stopped = watched(self.endless, child.proc.pid, start, deadline, wait, TIMEOUT)
        if stopped:
            self.early_stops[case.id] = self.endless.message()
        return raw

    def _await_import(self, child: Child, nonce: str):
        """The import line, TIMEOUT, DEAD or FLOOD: within import_timeout (of CPU and waiting, confirming)."""
        wait = lambda until: self._await(child, until, self._import_line, nonce)  # noqa: E731
        return self.clock.import_line(child.proc.pid, self.limits.import_timeout, wait, TIMEOUT)

    def _count_from(self, child: Child) -> None:
        """Start the counts of what is read for one message (a case's, the imports'), whatever its waits."""
        self.start_bytes, self.refused, self.dropped_from = child.received, 0, child.flooded

    def _await(self, child: Child, deadline: float, accept: Callable[..., object], *args):
        """The first line `accept(line, *args)` takes (not None); TIMEOUT, DEAD or FLOOD. Lines it refuses
        are ignored (and counted, with those the full queue dropped unread: the verdict is the same however fast
        the lines came); past max_case_lines of them, or max_case_bytes read since _count_from,
        it is a FLOOD: what the parent reads and keeps for one case is bounded whatever the child writes,
        however many waits it is awaited in (endless.watched's)."""
        limits = self.limits
        while True:
            line = child.next_line(deadline)
            if type(line) is str:  # TIMEOUT or DEAD; a line is bytes
                return line
            if child.received - self.start_bytes > limits.max_case_bytes:
                return FLOOD
            try:
                taken = accept(line, *args)
            except Exception:  # hostile nesting and the like: garbage too
                taken = None
            if taken is not None:
                return taken
            self.ignored += 1
            self.refused += 1
            if self.refused + child.flooded - self.dropped_from > limits.max_case_lines:  # dropped unread: refused too
                return FLOOD

    def _import_line(self, line: bytes, nonce: str) -> ImportOutcome | None:
        raw = decode_line(line)
        return None if raw is None else parse_import(raw, nonce, output_cap=self.limits.output_cap)

    def _parse(self, raw: dict, case: Case) -> CaseOutcome:
        """The outcome of the line `answer` took for this case (parsed once: it was checked there)."""
        try:
            return read_case(raw, case.id, output_cap=self.limits.output_cap)
        except Exception:  # hostile nesting and the like, in the line the case wrote for itself
            return CaseOutcome(case.id, "error", message="the result of this case could not be read")

    def _lost(self, child: Child, why: str, case: Case) -> CaseOutcome:
        """The outcome of a case during which the child hung, ended or flooded the result pipe."""
        if why == FLOOD:
            child.kill()
            self.floods += 1
            return CaseOutcome(case.id, "error", message=FLOODED.format(during="during this case"))
        if why == TIMEOUT:
            self.timeouts[case.task] += 1
            self.guessed |= set() if self.confirming else {case.id}
            return CaseOutcome(case.id, "timeout", message=self.early_stops.get(case.id) or
                               f"took longer than {self.limits.case_timeout:g} s: an endless loop?")
        exited = child.exited(wait=0.5)
        status = child.kill()
        if not exited:  # the result pipe closed under a live process
            status = RESULT_PIPE_LOST
        if status in PIPE_LOST:
            return CaseOutcome(case.id, "error", message=f"your code {PIPE_LOST[status]} {PIPE_LOST_WHEN[status]}")
        if case.visibility == "public":  # a hidden case's stderr would show its inputs: never quoted
            self._remember_stderr(child, since=self.stderr_mark)
        return CaseOutcome(case.id, "error", message=describe_exit(status))

    def _import_failed(self, child: Child, why: str, cases: list[Case]) -> None:
        if why == FLOOD:
            child.kill()
            message = FLOODED.format(during="while it was imported")
        elif why == TIMEOUT:
            self.guessed |= set() if self.confirming else {case.id for case in cases}
            message = (f"importing your code took longer than {self.limits.import_timeout:g} s: does a file "
                       "run something long when imported? (put it under `if __name__ == '__main__':`)")
        else:
            child.exited(wait=0.5)
            status = child.kill()
            if status in PIPE_LOST:
                message = f"your code {PIPE_LOST[status]} while it was imported"
            else:
                message = describe_exit(status, "while importing your code")
                self._remember_stderr(child)
        self.imports = self.imports or ImportOutcome({}, fatal=message)
        for case in cases:
            self.outcomes[case.id] = CaseOutcome(case.id, "error", message=message)

    def out_of_budget(self, cases: list[Case]) -> None:
        """The submission's time is up: its remaining cases time out, saying why."""
        for case in cases:
            self.outcomes[case.id] = CaseOutcome(
                case.id, "timeout", message=f"not run: your code used up the {self.budget:g} s it has for all "
                                            "its cases (the time budget); make the slow cases faster")
        self.not_run += len(cases)

    def _skip_timed_out(self, cases: list[Case]) -> list[Case]:
        to_run = []
        for case in cases:
            if self.timeouts[case.task] >= MAX_TIMEOUTS_PER_TASK:
                self.outcomes[case.id] = CaseOutcome(
                    case.id, "timeout", message="skipped: an earlier case of this task ran too long (above)")
            else:
                to_run.append(case)
        return to_run

    def _remember_stderr(self, child: Child, since: int = 0) -> None:
        tail = child.stderr_tail(since=since)
        if tail and tail not in self.child_errors:
            self.child_errors.append(tail)

    def notes(self) -> list[str]:
        notes = [f"the process running your code wrote this before it ended: {tail}" for tail in self.child_errors]
        if self.not_run:
            notes.append(f"the time budget of {self.budget:g} s for all cases ran out: {self.not_run} case(s) "
                         "were not run and count as timed out")
        if self.ignored:
            notes.append(f"{self.ignored} line(s) on the grader's result pipe were not the awaited "
                         "case's result and were ignored (garbage, or written by your code)")
        sandbox = self.level.note()  # what the sandbox does not protect, if anything
        return notes + ([sandbox] if sandbox else [])
