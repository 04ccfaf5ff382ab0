"""What the hand-derived and the random cases share: making a Case, writing numbers."""
from __future__ import annotations

import random

from autograder.cases.hints import TASK_HINTS, Hint
from autograder.cases.model import Case, Visibility
from autograder.tasks import OPS, VARIANT_OPS

# The symbol a title writes for each operation.
SYMBOL = {name: op.symbol for name, op in OPS.items()}

def case(task: str, name: str, program: str, params: dict, *, title: str,
         derivation: str = "", hint: Hint | None = None, visibility: Visibility = "public",
         needs: tuple[str, ...] = ()) -> Case:
    """A Case with id "<task>/<name>" and the task's hint unless one is given."""
    hint = hint or TASK_HINTS[task]
    return Case(
        id=f"{task}/{name}", task=task, program=program, params=params, visibility=visibility,
        title=title, derivation=derivation, hint=hint.text, hint_when=hint.when, needs=needs,
    )


def fmt(x) -> str:
    """A number as a student would write it: 2, -0.5, 0.7071."""
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def r3(x: float) -> float:
    """A random number rounded to 3 decimals, so titles and messages stay readable."""
    return round(x, 3)


def away(rng: random.Random, lo: float, hi: float, gap: float = 0.1) -> float:
    """A number with lo <= |x| <= hi, either sign: never close to 0."""
    return r3(rng.choice((-1, 1)) * rng.uniform(max(lo, gap), hi))


def describe_local(p: dict) -> str:
    """A one-line title for an ops.local case: the expression, out.grad, the grads preset."""
    op, a = p["op"], fmt(p["a"])
    form = (OPS.get(op) or VARIANT_OPS[op]).form
    if form == "binary":
        sym = SYMBOL[op]
        if p.get("same"):
            expr = f"a {sym} a with a = {a}"
        elif "const" in p:
            c = fmt(p["const"])
            expr = (f"{c} {sym} a" if p.get("const_side") == "left" else f"a {sym} {c}") + f" with a = {a}"
        else:
            expr = f"a {sym} b with a = {a}, b = {fmt(p['b'])}"
    elif form == "power":
        expr = f"a {SYMBOL[op]} {fmt(p['k'])} with a = {a}"
    else:
        expr = f"a.{op}() with a = {a}"
    title = f"{expr}; out._backward() with out.grad = {fmt(p['upstream'])}"
    if p.get("preset"):
        title += f", grads already there: {', '.join(fmt(g) for g in p['preset'])}"
    return title
