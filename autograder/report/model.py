"""The one result model every reporter renders.

Report -> TaskResult -> CaseResult. A crash of the grading itself is a Report
too (error set, every task at 0), never a missing row. Formats live in the
reporters, not here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Status = Literal["passed", "failed", "error", "missing", "timeout"]
STATUSES: tuple[str, ...] = ("passed", "failed", "error", "missing", "timeout")


@dataclass(frozen=True)
class CaseResult:
    id: str
    status: Status
    visibility: str = "public"
    message: str = ""                 # one line; for a hidden case it never shows inputs
    title: str = ""                   # what the case does (public cases)
    details: tuple[str, ...] = ()     # got / expected lines, derivation, hint (public cases)
    output: str = ""                  # what the code printed, capped (a public case that did not pass)
    counted: bool = True              # False: a failure charged to another task (see Case.needs), not this one


@dataclass(frozen=True)
class Diagnosis:
    """A classic mistake the observations fit (autograder/diagnosis): its id and one sentence with the fix."""
    id: str
    message: str


@dataclass(frozen=True)
class TaskResult:
    id: str
    title: str
    score: float
    max_score: float
    cases: tuple[CaseResult, ...] = ()
    diagnosis: tuple[Diagnosis, ...] = ()   # never changes the score

    @property
    def status(self) -> str:
        """The task's overall status: passed, or the most telling case status."""
        statuses = {c.status for c in self.cases}
        if len(statuses) == 1:
            return statuses.pop()
        return "failed" if statuses else "error"  # no cases: the grading never ran them

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.cases)


@dataclass(frozen=True)
class Report:
    submission: str
    score: float
    max_score: float
    tasks: tuple[TaskResult, ...] = ()
    error: str | None = None
    sandbox: str = "basic"
    notes: tuple[str, ...] = ()
    kit_version: str = ""
    duration: float = 0.0
    import_output: str = ""           # what the code printed while imported, capped (when an import failed)

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.tasks) and all(t.status == "passed" for t in self.tasks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def task(self, task_id: str) -> TaskResult:
        return next(t for t in self.tasks if t.id == task_id)
