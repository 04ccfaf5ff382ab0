"""The tasks and the operations: one table, from which everything else that names them derives.

A task is a row (id, title, default points, the student file it lives in, the family of
cases that test it); an op task also holds its operation (how a title writes it, its form
in the exercise API, its forward and derivative in floats, the inputs where the derivative
is a convention rather than calculus, the inputs random cases draw from, and whether a
neuron may use it as its activation). The case library, the rubric's default points, the
reports, `--task`, the activations, the reference engine's neuron and the torch adapter's
op map all read this table; tests/test_tasks.py fails when an op task lacks its solution,
its reference and torch methods, its hand cases or its hint.

Adding an op task (sigmoid, say): one `Task(..., op=Op(...))` row below, its `_backward` in
solutions/micrograd/engine.py (then `autograder exercises`), a method in reference/engine.py,
and its hand cases in cases/hand.py. Nothing here imports the rest of the kit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Literal, Mapping

Form = Literal["binary", "power", "method"]
Family = Literal["op", "backward", "nn", "train", "variant"]

# how far from a kink random inputs stay (a kink is hit on purpose, by the cases that name it)
KINK_GAP = 0.05


@dataclass(frozen=True)
class Op:
    symbol: str            # as a title writes it: "+", "**", "tanh"
    form: Form             # binary: a op b, b a Value or a number (and the reflected forms);
    #                        power: a ** k for a number k; method: a.tanh()
    forward: Callable[..., float]                    # forward(a, b) | forward(a, k) | forward(a)
    derivative: Callable[..., tuple[float, ...]]     # d out / d each Value operand, same arguments
    bound: float = math.inf  # random inputs have |a| <= bound (exp: 3, so that nothing overflows)
    kinks: tuple[float, ...] = ()  # inputs where the derivative is a convention (relu at 0: 0)
    activation: bool = False  # a neuron may use it: assignment.toml's `activation`
    label: str = ""        # a node's _op, where micrograd names it otherwise than the task ("ReLU"; "**{c}": with
    #                        the variant's constant, as a student's engine.py writes it)
    method: str = ""       # binary: the Value's method for `a op 3` ("__add__"), and for `3 op a` ("__radd__")
    reflected: str = ""
    # a variant's op (POOL): the name of its constant in the student's stub ("c"), written into that
    # student's engine.py; forward(a, c) and derivative(a, c) take it; variants draw it from `between`
    # and random inputs from `inputs` (lo, hi)
    constant: str = ""
    between: tuple[float, float] = (0.0, 0.0)
    inputs: tuple[float, float] = (-2.5, 2.5)

    def arguments(self, args: list[float], spec: dict) -> tuple[float, ...]:
        """What forward and derivative take for a node on `args` (its operands' data) made as `spec` says:
        (a, b), b the number spec["const"] where one is; (a, k); (a, c), c a variant's spec["constant"]; (a,)."""
        if self.form == "binary":
            return args[0], spec["const"] if "const" in spec else args[-1]
        if self.form == "power":
            return args[0], spec["k"]
        return (args[0], spec["constant"]) if self.constant else (args[0],)

    def fits(self, v: float, k: float | None = None) -> bool:
        """Is v an input random cases may give this op (with exponent k for a power)?"""
        if self.form == "power":
            if isinstance(k, int):
                return abs(v) <= 3 if k > 0 else 0.3 <= abs(v) <= 3
            return 0.3 <= v <= 3  # a fractional power needs a positive base
        return abs(v) <= self.bound and all(abs(v - x) >= KINK_GAP for x in self.kinks)


@dataclass(frozen=True)
class Task:
    id: str
    title: str
    points: float
    module: str            # the student's file: "engine", "nn" or "train"
    family: Family         # which builders of the case library make its cases
    op: Op | None = None   # an op task's operation


def _relu(a: float) -> float:
    return a if a > 0 else 0.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


TABLE: tuple[Task, ...] = (
    Task("add", "the _backward of a + b", 5, "engine", "op",
         Op("+", "binary", lambda a, b: a + b, lambda a, b: (1.0, 1.0), method="__add__", reflected="__radd__")),
    Task("mul", "the _backward of a * b", 5, "engine", "op",
         Op("*", "binary", lambda a, b: a * b, lambda a, b: (b, a), method="__mul__", reflected="__rmul__")),
    Task("pow", "the _backward of a ** k", 5, "engine", "op",
         Op("**", "power", lambda a, k: a ** k, lambda a, k: (k * a ** (k - 1),))),
    Task("tanh", "the _backward of tanh", 5, "engine", "op",
         Op("tanh", "method", math.tanh, lambda a: (1.0 - math.tanh(a) ** 2,), bound=5.0, activation=True)),
    Task("exp", "the _backward of exp", 5, "engine", "op",
         Op("exp", "method", math.exp, lambda a: (math.exp(a),), bound=3.0)),
    Task("relu", "the _backward of relu", 5, "engine", "op",
         Op("relu", "method", _relu, lambda a: (1.0 if a > 0 else 0.0,), kinks=(0.0,), activation=True,
            label="ReLU")),
    Task("backward", "Value.backward(): topological order and the chain rule", 15, "engine", "backward"),
    Task("neuron", "Neuron.__call__", 8, "nn", "nn"),
    Task("layer", "Layer.__call__", 6, "nn", "nn"),
    Task("mlp", "MLP: the layers __init__ builds, and __call__ through them", 8, "nn", "nn"),
    Task("parameters", "parameters() of Neuron, Layer and MLP", 8, "nn", "nn"),
    Task("zero_grad", "Module.zero_grad", 5, "nn", "nn"),
    Task("mse_loss", "mse_loss", 8, "train", "train"),
    Task("train", "train: the gradient-descent loop", 12, "train", "train"),
)

# The pool a variant's extra operation is drawn from ([variants] in assignment.toml): each with a
# constant of the variant's own, written into that student's engine.py, never the textbook's value
# (1, e, 0.01) so that a copy of another student's method computes another function. Not tasks of
# the base assignment: a variant adds its one row to the base's (autograder/variants/).
POOL: tuple[Task, ...] = (
    Task("sigmoid", "the _backward of sigmoid(c * a)", 5, "engine", "variant",
         Op("sigmoid", "method", lambda a, c: _sigmoid(c * a), lambda a, c: (c * _sigmoid(c * a) * (1 - _sigmoid(c * a)),),
            constant="c", between=(1.5, 3.5))),
    Task("softplus", "the _backward of softplus with steepness beta", 5, "engine", "variant",
         Op("softplus", "method", lambda a, c: math.log1p(math.exp(c * a)) / c, lambda a, c: (_sigmoid(c * a),),
            constant="beta", between=(1.5, 3.5))),
    Task("log", "the _backward of a logarithm to base b", 5, "engine", "variant",
         Op("log", "method", lambda a, c: math.log(a) / math.log(c), lambda a, c: (1.0 / (a * math.log(c)),),
            constant="base", between=(2.5, 9.5), inputs=(0.3, 3.0))),
    Task("sin", "the _backward of sin(w * a)", 5, "engine", "variant",
         Op("sin", "method", lambda a, c: math.sin(c * a), lambda a, c: (c * math.cos(c * a),),
            constant="w", between=(1.5, 3.5))),
    Task("leaky_relu", "the _backward of leaky relu with slope s", 5, "engine", "variant",
         Op("leaky_relu", "method", lambda a, c: a if a > 0 else c * a, lambda a, c: (1.0 if a > 0 else c,),
            kinks=(0.0,), constant="slope", between=(0.05, 0.45))),
    # the lecture's power rule with an exponent of the student's own, never the lecture's 2 (nor 0 or 1, where
    # the derivative is trivial): not an integer but by chance, so the base stays positive
    Task("power", "the _backward of a ** k with your exponent k", 5, "engine", "variant",
         Op("**", "method", lambda a, c: a ** c, lambda a, c: (c * a ** (c - 1),),
            label="**{c}", constant="k", between=(2.5, 4.5), inputs=(0.3, 3.0))),
)

# -- views of the table, for the places that need only one column ----------------------------
TASK: Mapping[str, Task] = MappingProxyType({t.id: t for t in TABLE})
TASK_IDS: tuple[str, ...] = tuple(TASK)
TASKS: Mapping[str, str] = MappingProxyType({t.id: t.title for t in TABLE})
TASK_MODULE: Mapping[str, str] = MappingProxyType({t.id: t.module for t in TABLE})
DEFAULT_POINTS: Mapping[str, float] = MappingProxyType({t.id: t.points for t in TABLE})
OPS: Mapping[str, Op] = MappingProxyType({t.id: t.op for t in TABLE if t.op is not None})
ACTIVATIONS: tuple[str, ...] = tuple(name for name, op in OPS.items() if op.activation)
# the pool's rows, and every row's title and file (a variant's report names its extra task)
VARIANT_OPS: Mapping[str, Op] = MappingProxyType({t.id: t.op for t in POOL if t.op is not None})
EVERY_OP: Mapping[str, Op] = MappingProxyType({**OPS, **VARIANT_OPS})
TITLE: Mapping[str, str] = MappingProxyType({t.id: t.title for t in TABLE + POOL})
MODULE: Mapping[str, str] = MappingProxyType({t.id: t.module for t in TABLE + POOL})
