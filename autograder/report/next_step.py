"""One next step: what a failing task opens with, in every reporter, before any evidence.

Three short parts, computed once here from the report and rendered by each reporter (the page, the
terminal, JSON, Gradescope, PrairieLearn, the notebook checks): where the code is (the file and line
the child read off the student's own code, and the node of the graph where the first wrong step is),
which rule that code breaks, and what to do next. Then the first failing case; the other failing
cases are counted (`same`) and folded by the reporter, not repeated.

A module that did not import is one step for every task it holds: the file, the line, a caret under
the place Python stopped, and one sentence (`steps` says it once, for the tasks it stopped).
Where a diagnosis names a mistake, its sentence is the rule; its `fix` (set only once a repair of the
student's own code made the cases pass) is the next step when there is one. Nothing here guesses: where
the evidence says less (no node singled out, no line found), the step says less.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from autograder.cases.origin import expression
from autograder.report.model import CaseResult, Report, TaskResult
from autograder.tasks import OPS, TASK_MODULE

# "micrograd/engine.py:50: SyntaxError: unmatched ')'" and "micrograd/nn.py:7: needs micrograd/engine.py, which ..."
_IMPORT = re.compile(r"^(?P<file>[^:]+?)(?::(?P<line>\d+))?: (?P<why>.*)$", re.S)
_NEEDS = re.compile(r"^needs (?P<file>\S+), which did not import")
_RAISED = re.compile(r"\(([^()\s]+\.(?:py|ipynb)):(\d+)\)$")  # "... (micrograd/train.py:10)"
AGAIN = "then run the check again"


@dataclass(frozen=True)
class NextStep:
    where: str                 # "engine.py line 47, the _backward of a * b, at the node out = a * b"
    rule: str                  # which rule the code breaks, in a sentence
    do: str                    # what to do next, in a sentence
    case: str = ""             # the first failing case, shown after the step ("" when none is)
    same: int = 0              # the other failing cases of the task, folded (a reporter counts them, shows one)
    source: str = ""           # a SyntaxError's line, as written
    caret: str = ""            # and the caret under where Python stopped ("      ^")

    def lines(self) -> list[str]:
        """The step as plain text lines (terminal, Gradescope, PrairieLearn, notebooks)."""
        code = [f"    {self.source}", f"    {self.caret}"] if self.source else []
        return [f"Where: {self.where}", *code, f"Rule: {self.rule}", f"Next: {self.do}"]

    def text(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict:
        return {"where": self.where, "rule": self.rule, "do": self.do, "case": self.case, "same": self.same,
                **({"source": self.source, "caret": self.caret} if self.source else {})}


def next_step(task: TaskResult, report: Report) -> NextStep | None:
    """The task's next step, or None for a task that passed (or a report that could not be graded)."""
    if report.error or task.status == "passed" or not task.cases:
        return None
    failing = [c for c in task.cases if c.status != "passed" and c.counted]
    if not failing:
        return None
    stopped = _import_step(task, report)
    if stopped is not None:
        return stopped
    public = [c for c in failing if c.visibility == "public"]
    first = public[0] if public else None
    same = len(public) - 1 if public else 0
    where = _where(task, first)
    found = task.diagnosis[0] if task.diagnosis else None
    if found is not None:  # proven: the repair made every case pass (its fix is set only then); else a likely one
        proof = found.where if found.proven else None
        place = proof.said() if proof is not None else _place(task)
        rule = _sentence(found.message) if found.proven else f"Likely mistake: {_sentence(found.message)}"
        return NextStep(where if proof is None else _where(task, first, place), rule,
                        found.fix or f"Make that change at {place}, {AGAIN}.", _id(first), same)
    if first is None:
        return NextStep(where, f"{len(failing)} hidden case(s) fail while every public one passes.",
                        _hidden_do(task), "", 0)
    if first.status == "missing":
        return NextStep(where, f"{task.title} is not written yet: it still raises NotImplementedError.",
                        f"Write it in {_place(task)}, {AGAIN}.", first.id, same)
    if first.status == "timeout":
        return NextStep(where, "The code ran past the time limit, so the case was stopped.",
                        "Look for a loop that never ends, or a walk that visits nodes again and again.",
                        first.id, same)
    if first.status == "error":  # the message ends with where it was raised, when that is in a student file
        raised = _RAISED.search(first.message)
        at = f"{raised.group(1)} line {raised.group(2)} ({task.title})" if raised else where
        return NextStep(at, f"The code raised {first.message}", f"Fix the line it names, {AGAIN}.", first.id, same)
    graph = first.graph
    rule = _sentence(graph.step) if graph is not None and graph.step else _sentence(first.message)
    return NextStep(where, rule, _hint(first) or f"Compare what {_place(task)} computes with the rule, {AGAIN}.",
                    first.id, same)


def steps(report: Report) -> list[tuple[NextStep, list[TaskResult]]]:
    """Each distinct step of the report with the failing tasks it stands for, in the report's order: a
    module that did not import is said once for every task it stopped."""
    found: dict[tuple, tuple[NextStep, list[TaskResult]]] = {}
    for task in report.tasks:
        step = next_step(task, report)
        if step is None:
            continue
        key = (step.where, step.rule, step.do, step.source) if step.source or not step.case else (task.id,)
        found.setdefault(key, (step, []))[1].append(task)
    return list(found.values())


def _import_step(task: TaskResult, report: Report) -> NextStep | None:
    """The step for a task whose module did not import: the first error down the chain of imports."""
    errors = dict(report.import_errors)
    failing = [c for c in task.cases if c.status != "passed" and c.counted]
    module = TASK_MODULE.get(task.id, "")
    if module not in errors:  # its own file imported, but its cases fail on one that did not ("Value is missing")
        module = next((m for m, w in errors.items() if failing and "did not import" in failing[0].message
                       and _IMPORT.match(w) and f"{_IMPORT.match(w).group('file')} did not import" in failing[0].message), "")
    why = errors.get(module)
    if why is None or not failing:
        return None
    for _ in range(len(errors)):  # nn.py needs engine.py, which did not import: engine.py's error is the one
        needs = _NEEDS.match(_IMPORT.match(why).group("why") if _IMPORT.match(why) else "")
        origin = next((m for m, w in errors.items() if needs and w.startswith(needs.group("file") + ":")), None)
        if origin is None:
            break
        module, why = origin, errors[origin]
    parts = _IMPORT.match(why)
    if parts is None:
        return NextStep(f"{module}.py", _sentence(why), f"Fix it, {AGAIN}.")
    file, line, said = parts.group("file"), parts.group("line"), parts.group("why")
    where = f"{file} line {line}" if line else file
    source = next(((text, column) for m, text, column in report.syntax if m == module), None)
    kind, _, message = said.partition(": ")
    if kind == "SyntaxError" or source is not None:
        rule = f"Python can't read this line ({message or said}), so nothing in {file} runs."
        do = f"Fix the line where the caret points, {AGAIN}."
    else:
        rule = f"{file} stopped while it was imported: {said}"
        do = f"Fix that line so the file imports, {AGAIN}."
    if source is None:
        return NextStep(where, _sentence(rule), do)
    text, column = source
    shown = text.lstrip()
    return NextStep(where, _sentence(rule), do, source=shown,
                    caret=" " * max(0, column - 1 - (len(text) - len(shown))) + "^")


def _where(task: TaskResult, first: CaseResult | None, place: str = "") -> str:
    """'engine.py line 47, the _backward of a * b, at the node out = a * b': as much as is known (place: the
    line a repair proved, else the task's own code)."""
    place = place or _place(task)
    node = first.graph.origin if first is not None and first.graph is not None else ""
    at = ""
    if node:
        found = next((n for n in first.graph.nodes if n.name == node), None)
        at = f", at the node {expression(found) if found is not None and found.children else node}"
    return f"{place} ({task.title}){at}"


def _place(task: TaskResult) -> str:
    if task.where:
        file, _, line = task.where.rpartition(":")
        return f"{file} line {line}"
    return f"{TASK_MODULE.get(task.id, 'engine')}.py"


def _hint(case: CaseResult) -> str:
    """The case's own hint (cases/hints.py), whatever it says, without its label."""
    for line in case.details:
        if line.startswith("hint: "):
            return _sentence(line[len("hint: "):])
    return ""


def _hidden_do(task: TaskResult) -> str:
    covers = " such as an upstream gradient other than 1, a node used twice, or zero and negative inputs" \
        if task.id in OPS else ""
    return f"Try inputs the public cases may not cover{covers}."


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    if re.match(r"[a-z]+(?![\w.(`])", text):  # a word, not code (a.grad, mse_loss, `x.grad`): capitalised
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def _id(case: CaseResult | None) -> str:
    return case.id if case is not None else ""
