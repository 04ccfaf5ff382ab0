"""The cases of a variant's extra operation (sigmoid(c * a), leaky relu with slope s, ...).

The same programs as every operation's (ops.local calls its closure by hand, ops.through_backward
walks a small graph with the student's backward()), with the variant's constant in the params
("constant"): the student's engine.py has it written in, and the reference and torch are given it
(goldens/compute.py). Hand cases say how their numbers follow; random ones come from the task's
own stream of the variant's seed, as every task's do.
"""
from __future__ import annotations

import random

from autograder.cases.common import away, case, describe_local, fmt, r3
from autograder.cases.hints import Hint
from autograder.cases.model import Case, Visibility
from autograder.tasks import VARIANT_OPS, Op

# how many random cases of each kind: (public, hidden)
COUNTS = {"local": (2, 3), "end-to-end": (1, 2)}
HINT = ("Differentiate the forward line of {op} in your engine.py with its constant {name} = {c}: the derivative "
        "of the whole expression, times out.grad.")


def _input(rng: random.Random, op: Op) -> float:
    lo, hi = op.inputs
    if op.kinks:
        return r3(op.kinks[0] + away(rng, 0.1, hi))  # either side of the kink, never on it
    return r3(rng.uniform(lo, hi))


def _local(task: str, name: str, c: float, vis: Visibility, derivation: str = "", **p) -> Case:
    op = VARIANT_OPS[task]
    params = {"op": task, "constant": c, **p}
    title = describe_local(params) + f" ({op.constant} = {fmt(c)})"
    return case(task, name, "ops.local", params, title=title, visibility=vis, derivation=derivation,
                hint=Hint(HINT.format(op=task, name=op.constant, c=fmt(c)), "rule"))


def hand_cases(task: str, c: float) -> list[Case]:
    """Two cases a student can redo on paper: one input, then one with a grad already there (for an operation
    with a kink, on the kink's other side: each side's derivative is checked on its own)."""
    op = VARIANT_OPS[task]
    a = 2.0 if op.inputs[0] > 0 else (-1.5 if op.kinks else 0.5)
    held = 2.0 if op.kinks else a

    def why(x: float) -> str:
        out, (d,) = op.forward(x, c), op.derivative(x, c)
        return (f"a.{task}() with {op.constant} = {fmt(c)} at a = {fmt(x)} is {out:.6g}; its derivative there is "
                f"{d:.6g}, so a.grad = {d:.6g} * out.grad")
    d, d_held = op.derivative(a, c)[0], op.derivative(held, c)[0]
    return [
        _local(task, "hand-local", c, "public", f"{why(a)} = {d * 2.0:.6g}.", a=a, upstream=2.0),
        _local(task, "hand-accumulate", c, "public",
               f"{why(held)}, added to the 0.5 already there: {0.5 + d_held * -1.5:.6g}.", a=held, upstream=-1.5,
               preset=[0.5]),
    ]


def _graph(rng: random.Random, op: Op) -> dict:
    """leaves x, y; m = p*x + q*y in op's input range; o = op(m); root = u*o + v*x."""
    x, y = away(rng, 0.3, 2.0), away(rng, 0.3, 2.0)
    target = _input(rng, op)
    p = away(rng, 0.3, 1.5)
    q = r3((target - p * x) / y)
    return {"leaves": [x, y], "nodes": [{"args": [0, 1], "coefs": [p, q]}, {"args": [2]},
                                        {"args": [3, 0], "coefs": [away(rng, 0.5, 1.5), away(rng, 0.5, 1.5)]}]}


def random_cases(task: str, c: float, rng: random.Random, prefix: str, vis: Visibility) -> list[Case]:
    op, hidden = VARIANT_OPS[task], vis == "hidden"
    out = []
    for _ in range(COUNTS["local"][hidden]):
        p = {"a": _input(rng, op), "upstream": away(rng, 0.5, 3.0)}
        if rng.random() < 0.5:
            p["preset"] = [away(rng, 0.1, 2.0)]
        out.append(_local(task, f"{prefix}-{len(out) + 1}", c, vis, **p))
    for _ in range(COUNTS["end-to-end"][hidden]):
        g = _graph(rng, op)
        x, y = g["leaves"]
        title = (f"end to end: m = {fmt(g['nodes'][0]['coefs'][0])}*x + {fmt(g['nodes'][0]['coefs'][1])}*y, "
                 f"o = m.{task}(), then your backward() from o and x, with x = {fmt(x)}, y = {fmt(y)}")
        out.append(case(task, f"{prefix}-{len(out) + 1}", "ops.through_backward", {"op": task, "constant": c, **g},
                        title=title, visibility=vis, needs=("backward",),
                        hint=Hint(HINT.format(op=task, name=op.constant, c=fmt(c)), "rule")))
    return out
