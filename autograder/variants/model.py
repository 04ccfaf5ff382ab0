"""A variant: one student's version of the assignment, as one value.

Drawn from the course's secret and the student's id (autograder/variants/draw.py) and
threaded through the kit on the rubric (`Rubric.variant`): the case library builds its
extra operation's cases and its random cases from it, the goldens follow from those
cases, and the reports say which variant they graded. The base assignment is `BASE`,
the variant with nothing varied. Nothing here imports the rest of the kit but the
task table.
"""
from __future__ import annotations

from dataclasses import dataclass

from autograder.tasks import VARIANT_OPS


@dataclass(frozen=True)
class Variant:
    student: str = ""              # whose variant ("" for the base assignment)
    op: str = ""                   # the extra operation, a task of tasks.POOL ("" none)
    constant: float = 0.0          # its constant (sigmoid(c * a): c), written into the student's engine.py
    activation: str = ""           # the hidden layers' activation ("" the rubric's)
    seed: int | None = None        # the public random cases' seed (None: the kit's PUBLIC_SEED)
    worked: int | None = None      # the worked examples' numbers' draw (None: the lecture's; cases/worked.py)

    @property
    def is_base(self) -> bool:
        return not (self.op or self.activation or self.seed is not None or self.worked is not None)

    @property
    def tasks(self) -> tuple[str, ...]:
        """The tasks this variant adds to the base assignment's."""
        return (self.op,) if self.op else ()

    @property
    def op_label(self) -> str:
        """"sigmoid (c = 2.3407)", or "" without an extra operation."""
        if not self.op:
            return ""
        return f"{self.op} ({VARIANT_OPS[self.op].constant} = {self.constant:g})"

    @property
    def label(self) -> str:
        """One line naming what is varied: "sigmoid (c = 2.3407), relu hidden layers, cases seed 81234, worked
        examples 5521"."""
        parts = [self.op_label] if self.op else []
        if self.activation:
            parts.append(f"{self.activation} hidden layers")
        if self.seed is not None:
            parts.append(f"cases seed {self.seed}")
        if self.worked is not None:
            parts.append(f"worked examples {self.worked}")
        return ", ".join(parts) or "the base assignment"

    def to_json(self) -> dict:
        return {"student": self.student, "op": self.op, "constant": self.constant,
                "activation": self.activation, "seed": self.seed, "worked": self.worked}

    @classmethod
    def from_json(cls, data: dict) -> "Variant":
        op = str(data.get("op") or "")
        if op and op not in VARIANT_OPS:
            raise ValueError(f"unknown variant operation {op!r}")
        seed, worked = data.get("seed"), data.get("worked")
        return cls(student=str(data.get("student") or ""), op=op, constant=float(data.get("constant") or 0.0),
                   activation=str(data.get("activation") or ""), seed=None if seed is None else int(seed),
                   worked=None if worked is None else int(worked))


BASE = Variant()
