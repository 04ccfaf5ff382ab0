"""A variant's engine.py: the base one with the variant's extra operation written in, constant and all.

The operation's method is a template in solutions/variants/<op>.py.in (its `_backward` inside
solution markers, as every task's); it goes into the Value class just before backward(), its
constant written as a number. The solution package of a variant (for the kit's tests, the
simulated class) keeps the solution; a student's handout gets it stripped, as exercises/ is.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from autograder import paths
from autograder.errors import KitError
from autograder.exercises.markers import strip_solutions
from autograder.files import write_text_atomic
from autograder.variants.model import Variant

TEMPLATES = paths.SOLUTIONS / "variants"
ANCHOR = "    def backward(self):\n"


def engine_source(base: str, variant: Variant) -> str:
    """The solution engine.py of `variant`, from the base solution's text (the same text without an op)."""
    if not variant.op:
        return base
    if base.count(ANCHOR) != 1:
        raise KitError("solutions/micrograd/engine.py: a variant's operation goes just before `def backward(self):`, "
                       "which it must have once")
    template = (TEMPLATES / f"{variant.op}.py.in").read_text(encoding="utf-8")
    method = template.replace("{constant}", repr(variant.constant))
    return base.replace(ANCHOR, method + ANCHOR)


def write_package(dest: Path, variant: Variant, *, solution: bool, solutions: Path = paths.SOLUTIONS) -> Path:
    """dest/micrograd: the variant's solution (solution=True) or its exercise stubs. Returns dest/micrograd."""
    package = Path(dest) / "micrograd"
    package.mkdir(parents=True, exist_ok=True)
    for source in sorted((solutions / "micrograd").glob("*.py")):
        text = source.read_text(encoding="utf-8")
        if source.name == "engine.py":
            text = engine_source(text, variant)
        write_text_atomic(package / source.name, text if solution else strip_solutions(text, str(source)))
    return package


def copy_solution(dest: Path, variant: Variant) -> Path:
    """A fresh folder `dest` holding the variant's solution package (dest is replaced)."""
    if Path(dest).exists():
        shutil.rmtree(dest)
    write_package(dest, variant, solution=True)
    return Path(dest)
