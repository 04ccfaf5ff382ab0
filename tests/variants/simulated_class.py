"""A simulated class with variants: who is correct, buggy, a planted copy of another student, or the lecture's engine.

Each student is a folder named by their id (the folder layout: the id a variant is drawn from) holding
a `micrograd` package written from solutions/ for their own variant, then changed as their kind says:
  correct   their variant's solution
  buggy     their variant's solution with one closure wrong (their extra operation's, or mul's)
  copy      another student's engine.py (that student named in `source`), their own nn.py and train.py
  lecture   the lecture's engine (solutions/ without any extra operation), pasted whole
"""
from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path

from autograder.config import Rubric
from autograder.exercises.variant_source import write_package
from autograder.variants.assign import variant_of
from autograder.variants.model import BASE

KINDS = ("correct", "buggy", "copy", "lecture")


@dataclass(frozen=True)
class Student:
    id: str
    kind: str
    source: str = ""      # a copy's: whose engine.py it holds


def plan(n: int, *, seed: int = 7, copies: int = 0, buggy: int = 0, lecture: int = 0) -> list[Student]:
    """n students: `copies` planted copies (each of a correct student's engine), `buggy`, `lecture`, the rest correct."""
    rng = random.Random(seed)
    ids = [f"s{1000 + i}" for i in range(n)]
    kinds = ["copy"] * copies + ["buggy"] * buggy + ["lecture"] * lecture
    kinds += ["correct"] * (n - len(kinds))
    rng.shuffle(kinds)
    correct = [i for i, k in zip(ids, kinds) if k == "correct"]
    return [Student(i, k, rng.choice([c for c in correct if c != i]) if k == "copy" else "") for i, k in zip(ids, kinds)]


def write_class(root: Path, students: list[Student], rubric: Rubric) -> Path:
    """root/<id>/micrograd for every student; returns root."""
    root.mkdir(parents=True, exist_ok=True)
    for s in students:
        folder = root / s.id
        if folder.exists():
            shutil.rmtree(folder)
        variant = variant_of(rubric, s.id)
        package = write_package(folder, BASE if s.kind == "lecture" else variant, solution=True)
        if s.kind == "copy":
            write_package(root / ".sources" / s.source, variant_of(rubric, s.source), solution=True)
            shutil.copy(root / ".sources" / s.source / "micrograd" / "engine.py", package / "engine.py")
        elif s.kind == "buggy":
            _plant_bug(package / "engine.py", variant.op)
    shutil.rmtree(root / ".sources", ignore_errors=True)
    return root


def _plant_bug(engine: Path, op: str) -> None:
    """One closure wrong: the extra operation's loses its out.grad factor (or, without one, mul's overwrites)."""
    text = engine.read_text(encoding="utf-8")
    start = text.index(f"    def {op}(self):") if op else text.index("    def __mul__(")
    head, body = text[:start], text[start:]
    if op:
        body = body.replace(" * out.grad\n", "\n", 1)
    else:
        body = body.replace("self.grad += other.data * out.grad", "self.grad = other.data * out.grad", 1)
    engine.write_text(head + body, encoding="utf-8")
