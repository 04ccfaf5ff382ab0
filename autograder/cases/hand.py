"""Hand-derived cases of the engine's tasks: each operation's closure, and backward().

Every case says how its numbers follow, so a student can redo it on paper. The
operations' cases call one `_backward` closure directly (program ops.local) with
an upstream gradient other than 1; backward()'s run on graphs of kit nodes that
compute linear combinations ("mix" nodes: n = c1*x1 + c2*x2 + ...).
"""
from __future__ import annotations

import math

from autograder.cases.common import case, describe_local, fmt
from autograder.cases.hints import Hint
from autograder.cases.model import Case
from autograder.cases.worked import LECTURE, Worked


ACCUMULATE = Hint("The input already held a grad (from another use of it in a bigger graph): the closure must add "
                  "its share to it (+=), not replace it (=).", "replaced")

# hints more precise than the task's, for the cases that catch one mistake in particular:
# by case name, or by "task/name" where the name alone would also match another task's case
HINTS = {
    "a-plus-a": Hint("The same Value is both inputs: with =, the second assignment overwrites the first share; "
                     "with +=, both shares add up.", "replaced"),
    "x-times-x": Hint("The same Value is both factors: each use gets out.grad times the other factor, and "
                      "with += they add up to 2 * a * out.grad; with = the second share overwrites the first.",
                      "replaced"),
    "accumulate": ACCUMULATE,
    "reflected": Hint("Python turns a number on the left into a call of your Value's reflected method (3 + a is "
                      "a.__radd__(3), 3 * a is a.__rmul__(3)): it must exist and return self + other (self * other). "
                      "The forward code wraps the number in a Value; the closure's rule for the Value input is what "
                      "is graded.", "number_left"),
    "number": Hint("The forward code wraps the number in a Value first (other = other if isinstance(other, Value) "
                   "else Value(other)): a plain number has no .data or .grad. The closure's rule for a is what is "
                   "graded.", "number_right"),
    "relu/at-zero": Hint("At exactly 0 the derivative is 0: pass the gradient on only where the output is > 0, "
                         "not >= 0.", "at_zero"),
    "relu/at-zero-held": Hint("At exactly 0 the derivative is 0: pass the gradient on only where the output is "
                              "> 0, not >= 0; the grad already there stays as it is.", "at_zero"),
    "relu/negative": Hint("Where the input is negative relu is flat: the input gets no gradient.", "flat_gets_grad"),
    "tanh/L-neuron": Hint("1 - t**2 with t the output tanh(a) (out.data), not 1 - a**2.", "at_input"),
}


def _local(task: str, name: str, derivation: str, **p) -> Case:
    p = {"op": task, **p}
    return case(task, f"hand-{name}", "ops.local", p, title=describe_local(p), derivation=derivation,
                hint=HINTS.get(f"{task}/{name}", HINTS.get(name)))


def add_cases(worked: Worked = LECTURE) -> list[Case]:
    e, c, f = worked.a * worked.b, worked.c, worked.f
    return [
        _local("add", "L-graph", f"In Karpathy's graph L = d * f, d = e + c with e = {fmt(e)}, c = {fmt(c)}, and "
               f"dL/dd = f = {fmt(f)} arrives as out.grad. d(e + c)/de = d(e + c)/dc = 1, so dL/de = {fmt(f)} * 1 = "
               f"{fmt(f)} and dL/dc = {fmt(f)} * 1 = {fmt(f)}.",
               a=e, b=c, upstream=f),
        _local("add", "a-plus-a", "out = a + a uses a twice. Each use gets out.grad * 1 = 1.5, so a.grad = 1.5 + 1.5 = 3: "
               "the closure must add (+=) both shares, not overwrite the first with the second.",
               a=3.0, same=True, upstream=1.5),
        _local("add", "accumulate", "The inputs already hold grads 0.5 and -1 (from other uses of a and b). The closure "
               "adds out.grad * 1 = 2 to each: a.grad = 0.5 + 2 = 2.5, b.grad = -1 + 2 = 1.",
               a=1.0, b=4.0, preset=[0.5, -1.0], upstream=2.0),
        _local("add", "reflected", "3 + a calls a.__radd__(3), which is a + 3: the 3 becomes a Value too. out = 1.5, "
               "and a.grad = out.grad * 1 = 4.", a=-1.5, const=3.0, const_side="left", upstream=4.0),
        _local("add", "number", "a + 2 with a number on the right: the 2 becomes a Value in the forward code. "
               "out = 2.5, and a.grad = out.grad * 1 = -1.", a=0.5, const=2.0, const_side="right", upstream=-1.0),
    ]


def mul_cases(worked: Worked = LECTURE) -> list[Case]:
    a, b, f = worked.a, worked.b, worked.f
    return [
        _local("mul", "L-graph", f"In Karpathy's graph, e = a * b with a = {fmt(a)}, b = {fmt(b)}, and dL/de = {fmt(f)} "
               f"arrives as out.grad. de/da = b and de/db = a, so dL/da = {fmt(f)} * b = {fmt(f)} * {fmt(b)} = "
               f"{fmt(f * b)} and dL/db = {fmt(f)} * a = {fmt(f)} * {fmt(a)} = {fmt(f * a)}.",
               a=a, b=b, upstream=f),
        _local("mul", "x-times-x", "out = a * a = a**2, whose derivative is 2a. Each use of a gets out.grad times the "
               "other factor: 2 * -1.5 = -3, twice, so a.grad = -6 (= 2 * a * out.grad).",
               a=-1.5, same=True, upstream=2.0),
        _local("mul", "accumulate", "a and b already hold grad 1. The closure adds b * out.grad = 4 * 3 = 12 to a and "
               "a * out.grad = 0.5 * 3 = 1.5 to b: a.grad = 13, b.grad = 2.5.",
               a=0.5, b=4.0, preset=[1.0, 1.0], upstream=3.0),
        _local("mul", "reflected", "3 * a calls a.__rmul__(3), which is a * 3: out = 6, and a.grad = 3 * out.grad = "
               "3 * -1 = -3.", a=2.0, const=3.0, const_side="left", upstream=-1.0),
        _local("mul", "number", "a * 3 with a number on the right: the 3 becomes a Value in the forward code. "
               "out = -4.5, and a.grad = 3 * out.grad = 3 * 2 = 6.", a=-1.5, const=3.0, const_side="right",
               upstream=2.0),
    ]


def pow_cases() -> list[Case]:
    return [
        _local("pow", "square", "d(a**2)/da = 2a = 6 at a = 3; times out.grad = 0.5: a.grad = 3.",
               a=3.0, k=2, upstream=0.5),
        _local("pow", "cube", "d(a**3)/da = 3a**2 = 3 * 4 = 12 at a = -2; times out.grad = 1.5: a.grad = 18.",
               a=-2.0, k=3, upstream=1.5),
        _local("pow", "inverse", "a**-1 = 1/a; its derivative is -1 * a**-2 = -1/4 at a = 2; times out.grad = 4: "
               "a.grad = -1.", a=2.0, k=-1, upstream=4.0),
        _local("pow", "sqrt", "a**0.5 is the square root; its derivative is 0.5 * a**-0.5 = 0.5 / 2 = 0.25 at a = 4; "
               "times out.grad = 2: a.grad = 0.5.", a=4.0, k=0.5, upstream=2.0),
        _local("pow", "negative-square", "d(a**2)/da = 2a = -3 at a = -1.5 (negative: the sign matters); times "
               "out.grad = 2: a.grad = -6.", a=-1.5, k=2, upstream=2.0),
        _local("pow", "accumulate", "a already holds grad 1. d(a**2)/da = 2 * 1.5 = 3, times out.grad = -1 is -3, "
               "added: a.grad = 1 - 3 = -2.", a=1.5, k=2, preset=[1.0], upstream=-1.0),
    ]


def tanh_cases() -> list[Case]:
    n = 0.8813735870195432
    t = math.tanh(n)
    t2, t3 = math.tanh(-2.0), math.tanh(0.5)
    return [
        _local("tanh", "L-neuron", f"Karpathy's neuron: n = {n}, t = tanh(n) = {fmt(t)} (1/sqrt(2)). "
               f"d tanh(n)/dn = 1 - t**2 = 0.5; times out.grad = 2: a.grad = 1.", a=n, upstream=2.0),
        _local("tanh", "zero", "tanh(0) = 0, so 1 - t**2 = 1: a.grad = out.grad = -3.", a=0.0, upstream=-3.0),
        _local("tanh", "saturated", f"t = tanh(-2) = {fmt(t2)}, 1 - t**2 = {fmt(1 - t2 * t2)}; times out.grad = 1.5: "
               f"a.grad = {fmt((1 - t2 * t2) * 1.5)}. Far from 0, tanh is flat and passes little gradient.",
               a=-2.0, upstream=1.5),
        _local("tanh", "accumulate", f"a already holds grad 2. t = tanh(0.5) = {fmt(t3)}, 1 - t**2 = "
               f"{fmt(1 - t3 * t3)}, times out.grad = -1, added: a.grad = {fmt(2 - (1 - t3 * t3))}.",
               a=0.5, preset=[2.0], upstream=-1.0),
    ]


def exp_cases() -> list[Case]:
    e1 = math.exp(-1.0)
    return [
        _local("exp", "zero", "exp(0) = 1 is also the derivative: a.grad = 1 * out.grad = 3.", a=0.0, upstream=3.0),
        _local("exp", "ln2", "exp(ln 2) = 2, and the derivative of exp is exp itself: a.grad = 2 * out.grad = 2 * 1.5 = 3.",
               a=math.log(2.0), upstream=1.5),
        _local("exp", "negative", f"exp(-1) = {fmt(e1)}; a.grad = {fmt(e1)} * out.grad = {fmt(e1)} * 2 = {fmt(2 * e1)}.",
               a=-1.0, upstream=2.0),
        _local("exp", "accumulate", f"a already holds grad -1. exp(1) = e = {fmt(math.e)}, times out.grad = 0.5 is "
               f"{fmt(math.e / 2)}, added: a.grad = {fmt(math.e / 2 - 1)}.", a=1.0, preset=[-1.0], upstream=0.5),
    ]


def relu_cases() -> list[Case]:
    return [
        _local("relu", "positive", "relu(2.5) = 2.5; for a positive input relu is the identity, derivative 1: "
               "a.grad = out.grad = 3.", a=2.5, upstream=3.0),
        _local("relu", "negative", "relu(-1) = 0; for a negative input relu is flat, derivative 0: a.grad stays 0.",
               a=-1.0, upstream=3.0),
        _local("relu", "at-zero", "relu(0) = 0. At exactly 0 the derivative is taken to be 0, as PyTorch does: "
               "a.grad stays 0.", a=0.0, upstream=3.0),
        _local("relu", "accumulate", "a already holds grad 2; the input -0.5 is negative, so the closure adds "
               "0 * out.grad: a.grad stays 2 (not 0: add, do not overwrite).", a=-0.5, preset=[2.0], upstream=5.0),
        _local("relu", "at-zero-held", "relu(0) = 0 and its derivative at 0 is 0: the closure adds 0 * out.grad, so "
               "the grad a already held, 1.5, stays 1.5.", a=0.0, preset=[1.5], upstream=-2.0),
        case("relu", "hand-at-zero-graph", "ops.graph",
             {"op": "relu", "leaves": [1.5, -2.0],
              "nodes": [{"args": [0, 1], "coefs": [2.0, 1.5]}, {"args": [2]}, {"args": [3, 0], "coefs": [4.0, 1.0]}],
              "upstream": 2.0},
             title="out = 4 * relu(2*x0 + 1.5*x1) + x0 with x0 = 1.5, x1 = -2 (relu's input is exactly 0), "
                   "every _backward() called in turn, out.grad = 2",
             derivation="n0 = 2*x0 + 1.5*x1 = 3 - 3 = 0, n1 = relu(n0) = 0, n2 = 4*n1 + x0 is the output. relu's "
                        "derivative at 0 is 0, so n0.grad = 0 and only the direct path reaches x0: x0.grad = 1 * "
                        "out.grad = 2, x1.grad = 0.",
             hint=Hint(HINTS["relu/at-zero"].text, "passes_at_zero")),
    ]
