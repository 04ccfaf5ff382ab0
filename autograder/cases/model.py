"""A case: one small program, with its parameters, run on any engine.

The program is a function in autograder/child/programs/ (named
"module.function"); it is written once against the exercise API and runs on the
student's engine (in the sandboxed child), on the reference and on torch.
A case holds no expected value: goldens are computed from it in the trusted
process and never reach the child.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Visibility = Literal["public", "hidden"]


@dataclass(frozen=True)
class Case:
    id: str                      # unique, "<task>/<name>", e.g. "mul/hand-L-graph", "mul/random-3"
    task: str                    # a task id from autograder.tasks
    program: str                 # "module.function" under autograder/child/programs/
    params: dict[str, Any]       # JSON-able arguments of the program
    visibility: Visibility = "public"
    title: str = ""              # one line a student reads: what this case does
    derivation: str = ""         # hand-derived cases: how the expected numbers follow
    hint: str = ""               # what to think about when it fails
    hint_when: str = ""          # when the hint is true of the code: a condition of cases/hint_when.py
    # tasks whose own cases must all pass for this case to count: an end-to-end case runs the
    # student's backward() too, and a bug there is charged to the backward task, not again here
    needs: tuple[str, ...] = ()

    def to_job(self) -> dict[str, Any]:
        """What the child receives: the program and its inputs, nothing expected."""
        return {"id": self.id, "program": self.program, "params": self.params}
