"""Check your engine's gradients yourself: your backward() against numeric central differences.

    from autograder.gradcheck import gradcheck
    from micrograd.engine import Value
    gradcheck(lambda a, b: (a * b + a ** 2).tanh(), [0.5, -1.5], Value)

prints, for each input, your grad, the numeric one ((f(x + h) - f(x - h)) / 2h with numpy in float64)
and whether they agree, and returns True when all do. It runs your code in this process: it is your
tool, not the grader (the grader runs your code in a sandbox). Pick inputs away from kinks (relu at 0).
"""
from __future__ import annotations

import inspect
from typing import Callable, Sequence

import numpy as np


def numeric_grads(f: Callable, inputs: Sequence[float], value_class, h: float = 1e-6) -> np.ndarray:
    """d f / d input_i by central differences, each f evaluated on fresh Values (forward only)."""
    x = np.asarray(inputs, dtype=np.float64)
    grads = np.empty_like(x)
    for i in range(x.size):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        grads[i] = (_forward(f, up, value_class) - _forward(f, down, value_class)) / (2 * h)
    return grads


def gradcheck(f: Callable, inputs: Sequence[float], value_class, *, h: float = 1e-6, rtol: float = 1e-4,
              atol: float = 1e-6, show: bool = True) -> bool:
    """Do your backward()'s grads of f at inputs agree with numeric ones? Prints a small table."""
    values = [value_class(float(v)) for v in inputs]
    out = f(*values)
    out.backward()
    yours = np.array([float(v.grad) for v in values], dtype=np.float64)
    numeric = numeric_grads(f, inputs, value_class, h)
    ok = np.isclose(yours, numeric, rtol=rtol, atol=atol)
    if show:
        print(f"f = {float(out.data):.6g}")
        print(f"{'input':>6} {'value':>12} {'your grad':>14} {'numeric':>14}  agree")
        for name, v, g, n, good in zip(input_names(f, len(values)), inputs, yours, numeric, ok):
            print(f"{name:>6} {float(v):12.6g} {g:14.8g} {n:14.8g}  {'yes' if good else 'NO'}")
    return bool(ok.all())


def input_names(f: Callable, n: int) -> list[str]:
    """f's own names for its inputs (`lambda a, b: ...` gives a, b); x0, x1, ... where it has none (*args)."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        params = []
    named = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:n]
    return named + [f"x{i}" for i in range(len(named), n)]


def _forward(f: Callable, x: np.ndarray, value_class) -> float:
    return float(f(*[value_class(float(v)) for v in x]).data)
