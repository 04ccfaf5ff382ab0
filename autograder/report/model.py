"""The one result model every reporter renders.

Report -> TaskResult -> CaseResult. A crash of the grading itself is a Report
too (error set, every task at 0), never a missing row. Formats live in the
reporters, not here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from autograder.variants.model import Variant

Status = Literal["passed", "failed", "error", "missing", "timeout"]
STATUSES: tuple[str, ...] = ("passed", "failed", "error", "missing", "timeout")


@dataclass(frozen=True)
class GraphNode:
    """One node of a case's graph, with the kit's data and, where observed, the student's grad."""
    name: str                        # x0, n3 (a, b, out in a one-operation case)
    data: float                      # the right forward value, computed on the kit's side
    op: str = ""                     # the operation that made it: "", "+", "*", "**2", "tanh", "2*x0 - x1"
    children: tuple[str, ...] = ()
    grad: float | None = None        # the student's grad (None: this case does not observe it)
    expected: float | None = None    # the right grad
    data_got: float | None = None    # the student's data, where observed (the output)
    wrong_grad: bool = False
    wrong_data: bool = False
    note: str = ""                   # "mix" for the kit's linear-combination nodes

    @property
    def wrong(self) -> bool:
        return self.wrong_grad or self.wrong_data


@dataclass(frozen=True)
class CaseGraph:
    """A case's graph as the kit built it (never read from student objects), with the numbers marked."""
    nodes: tuple[GraphNode, ...]
    origin: str = ""              # the node whose own step is the first wrong one (cases/origin.py), "" if none is singled out
    after: tuple[str, ...] = ()   # the wrong nodes below it that are wrong only because of it
    step: str = ""                # the sentence that says so ("the first wrong step is at n2 = x0 * x1: ...")

    @property
    def wrong(self) -> tuple[str, ...]:
        return tuple(n.name for n in self.nodes if n.wrong)


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
    graph: CaseGraph | None = None    # a failed public case's graph, annotated (cases/case_graph.py)
    charged_to: tuple[str, ...] = ()  # where a failure not counted here is charged: the tasks it needs


@dataclass(frozen=True)
class Place:
    """A line of the student's own file (a notebook's: `cell` and the line within it)."""
    file: str
    line: int
    cell: int | None = None

    def said(self, lines: tuple[int, ...] = ()) -> str:
        """"engine.py line 50", "engine.py lines 50 and 51" (with the other `lines`), "hw.ipynb cell 4, line 3"."""
        numbers = sorted(set(lines) | {self.line})
        at = f"line {numbers[0]}" if len(numbers) == 1 else \
            f"lines {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
        return f"{self.file} cell {self.cell}, {at}" if self.cell is not None else f"{self.file} {at}"


@dataclass(frozen=True)
class Diagnosis:
    """A classic mistake the observations fit (autograder/diagnosis): its id and one sentence, as much as the
    course's [feedback] diagnosis shows (where, the rule, the fix). proven: the repair the mistake implies,
    made on a copy of the student's own code, passes every case of the task (diagnosis/repair/); `where` is
    the line it changed, and `fix` says the change (only when proven, and only where the course shows fixes)."""
    id: str
    message: str
    proven: bool = False
    fix: str | None = None
    where: Place | None = None


@dataclass(frozen=True)
class TaskResult:
    id: str
    title: str
    score: float
    max_score: float
    cases: tuple[CaseResult, ...] = ()
    diagnosis: tuple[Diagnosis, ...] = ()   # never changes the score
    where: str = ""                         # where the student wrote it, "engine.py:47" ("": not found)

    @cached_property
    def status(self) -> str:
        """The task's overall status: passed, or the most telling case status, judged on the cases that
        count (a failure charged to another task, see CaseResult.counted, is shown but not held here).
        Worked out once a task (its cases never change): a report's renderers each ask it of every task."""
        statuses = {c.status for c in self.cases if c.counted} or {c.status for c in self.cases}
        if len(statuses) == 1:
            return statuses.pop()
        return "failed" if statuses else "error"  # no cases: the grading never ran them

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.cases)

    @property
    def waived(self) -> int:
        """Failing cases not counted here: charged to a task they need, which fails its own cases."""
        return sum(not c.counted for c in self.cases)


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
    # the student's modules that did not import, each with why in one line: (("nn", "nn.py:3: SyntaxError:
    # invalid syntax"),); every module when the import itself hung or died
    import_errors: tuple[tuple[str, str], ...] = ()
    variant: Variant | None = None    # the student's variant it was graded against (None: the base assignment)
    # with [variants]: what the code's extra operations gave at forensics' sample inputs, (op, outs, grads)
    # per operation that ran (autograder/variants/forensics.py); never scored, never on a student's page
    samples: tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...] = ()
    # the modules that did not import with a SyntaxError: (module, the line's text, the caret's column from 1)
    syntax: tuple[tuple[str, str, int], ...] = ()

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.tasks) and all(t.status == "passed" for t in self.tasks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def task(self, task_id: str) -> TaskResult:
        return next(t for t in self.tasks if t.id == task_id)

    @property
    def sandbox_notes(self) -> tuple[str, ...]:
        """What the sandbox level says it can't hold: the grader's concern, not a student's."""
        return tuple(n for n in self.notes if n.startswith(SANDBOX_NOTE))

    def without_sandbox_notes(self) -> "Report":
        """The report as a student reads it: the rest of its notes, its level still in `sandbox`."""
        return replace(self, notes=tuple(n for n in self.notes if not n.startswith(SANDBOX_NOTE)))


SANDBOX_NOTE = "sandbox: "  # how each sandbox level's note begins (runner/levels/: basic.py, uid/level.py, bwrap/level.py)
