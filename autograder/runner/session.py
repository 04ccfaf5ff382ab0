"""Run a list of cases on a student's package in sandboxed children; every case gets an outcome.

One child runs the cases in order. A case that times out or takes the child down
costs that case only: the child's whole session is killed and a fresh child runs
the rest. A task whose cases time out twice has its remaining cases skipped.
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
from autograder.runner.protocol import (
    RESULT_PIPE_LOST, CaseOutcome, ImportOutcome, decode_line, parse_case, parse_import,
)
from autograder.runner.sandbox import DEAD, TIMEOUT, Child, Limits, describe_exit

MAX_TIMEOUTS_PER_TASK = 2
DEFAULT_FORBIDDEN: tuple[str, ...] = Rubric.forbidden_imports


@dataclass
class RunResult:
    imports: ImportOutcome
    outcomes: dict[str, CaseOutcome]     # case id -> outcome, for every case
    sandbox: str = "basic"
    notes: list[str] = field(default_factory=list)


def run_cases(
    student_root: Path,
    cases: list[Case],
    *,
    limits: Limits = Limits(),
    programs_dir: Path | None = None,
    files: Mapping[str, str] | None = None,
    forbidden: Sequence[str] = DEFAULT_FORBIDDEN,
) -> RunResult:
    """Run `cases` on the `micrograd` package in student_root.

    files: module -> the name the student knows the file by ("engine" -> "hw3.py"),
    for messages (Prepared.files); programs_dir: another folder of case programs. The
    sandbox level is the best this machine offers, or the one AUTOGRADER_SANDBOX insists on.
    """
    level = current_level()
    run = _Run(Path(student_root).resolve(), limits, programs_dir, dict(files or {}), list(forbidden), level)
    pending = list(cases)
    while True:
        pending = run.one_child(pending)
        if not pending:
            break
    return RunResult(run.imports or ImportOutcome({}), run.outcomes, level.name, run.notes())


class _Run:
    def __init__(self, root: Path, limits: Limits, programs_dir, files, forbidden, level: Level):
        self.root, self.limits, self.programs_dir, self.level = root, limits, programs_dir, level
        self.files, self.forbidden = files, forbidden
        self.imports: ImportOutcome | None = None
        self.outcomes: dict[str, CaseOutcome] = {}
        self.timeouts: Counter[str] = Counter()
        self.ignored = 0
        self.child_errors: list[str] = []

    def one_child(self, cases: list[Case]) -> list[Case]:
        """Run cases in one child until it finishes, hangs or dies; returns the cases still to run."""
        child = Child(self._job(cases), self.limits, programs_dir=self.programs_dir, level=self.level)
        try:
            imports = self._await(child, time.monotonic() + self.limits.import_timeout, parse_import)
            if not isinstance(imports, ImportOutcome):
                self._import_failed(child, imports, cases)
                return []
            self.imports = self.imports or imports
            last = time.monotonic()
            for i, case in enumerate(cases):
                outcome = self._await(
                    child, last + self.limits.case_timeout,
                    lambda raw, case_id=case.id: parse_case(raw, case_id, output_cap=self.limits.output_cap))
                if isinstance(outcome, CaseOutcome):
                    self.outcomes[case.id] = outcome
                    last = time.monotonic()
                    continue
                self.outcomes[case.id] = self._lost(child, outcome, case)
                return self._skip_timed_out(cases[i + 1:])
            return []
        finally:
            child.kill()
            self.ignored += child.dropped_long

    def _job(self, cases: list[Case]) -> dict:
        return {
            "student_root": str(self.root),
            "cases": [case.to_job() for case in cases],
            "forbidden": self.forbidden,
            "output_cap": self.limits.output_cap,
            "max_result_line": self.limits.max_result_line,
            "files": self.files,
        }

    def _await(self, child: Child, deadline: float, parse: Callable[[dict], object]):
        """The first line `parse` accepts; TIMEOUT or DEAD. Lines it refuses are ignored."""
        while True:
            line = child.next_line(deadline)
            if line in (TIMEOUT, DEAD):
                return line
            raw = decode_line(line)
            try:
                parsed = parse(raw) if raw is not None else None
            except Exception:  # hostile nesting and the like: garbage too
                parsed = None
            if parsed is not None:
                return parsed
            self.ignored += 1

    def _lost(self, child: Child, why: str, case: Case) -> CaseOutcome:
        """The outcome of a case during which the child hung or ended."""
        if why == TIMEOUT:
            self.timeouts[case.task] += 1
            return CaseOutcome(case.id, "timeout",
                               message=f"took longer than {self.limits.case_timeout:g} s: an endless loop?")
        exited = child.exited(wait=0.5)
        status = child.kill()
        if not exited or status == RESULT_PIPE_LOST:  # the pipe closed under a live process
            return CaseOutcome(case.id, "error", message="your code closed the grader's result pipe during this case")
        self._remember_stderr(child)
        return CaseOutcome(case.id, "error", message=describe_exit(status))

    def _import_failed(self, child: Child, why: str, cases: list[Case]) -> None:
        if why == TIMEOUT:
            message = (f"importing your code took longer than {self.limits.import_timeout:g} s: does a file "
                       "run something long when imported? (put it under `if __name__ == '__main__':`)")
        else:
            child.exited(wait=0.5)
            message = describe_exit(child.kill(), "while importing your code")
            self._remember_stderr(child)
        self.imports = self.imports or ImportOutcome({}, fatal=message)
        for case in cases:
            self.outcomes[case.id] = CaseOutcome(case.id, "error", message=message)

    def _skip_timed_out(self, cases: list[Case]) -> list[Case]:
        to_run = []
        for case in cases:
            if self.timeouts[case.task] >= MAX_TIMEOUTS_PER_TASK:
                self.outcomes[case.id] = CaseOutcome(
                    case.id, "timeout", message="skipped: this task already timed out twice")
            else:
                to_run.append(case)
        return to_run

    def _remember_stderr(self, child: Child) -> None:
        tail = child.stderr_tail()
        if tail and tail not in self.child_errors:
            self.child_errors.append(tail)

    def notes(self) -> list[str]:
        notes = [f"the process running your code wrote this before it ended: {tail}" for tail in self.child_errors]
        if self.ignored:
            notes.append(f"{self.ignored} line(s) on the grader's result pipe were not the awaited "
                         "case's result and were ignored (garbage, or written by your code)")
        sandbox = self.level.note()  # what the sandbox does not protect, if anything
        return notes + ([sandbox] if sandbox else [])
