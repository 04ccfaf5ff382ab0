"""The lecture's warm-up, opening each notebook edition: a derivative by hand and numerically.

f(x) = 3x^2 - 4x + 5, its derivative written by hand, and the symmetric difference quotient
(f(x + h) - f(x - h)) / 2h over a numpy grid, as in the first part of the lecture. It is checked in
the notebook (by the tool's own tests, worth no points: the kit's task ids, and so its grade, are the
design's fourteen); its code defines functions only, so the kit's grading of the notebook runs it
without calling a stub.
"""
from __future__ import annotations

TEXT = """\
## Part 0: a derivative, by hand and numerically

Before any engine: take $f(x) = 3x^2 - 4x + 5$. Write its derivative by hand in `df`, then estimate
it numerically in `slope` with the symmetric difference quotient $(f(x+h) - f(x-h)) / 2h$, on a whole
numpy grid at once. When both agree on the grid, you have checked a derivative the way you will
check your engine's gradients (`from autograder.gradcheck import gradcheck`, then for example
`gradcheck(lambda a, b: (a * b + a**2).tanh(), [0.5, -1.5], Value)` once your engine works).
"""
DF = "    return 6 * x - 4\n"
SLOPE = "    return (f(x + h) - f(x - h)) / (2 * h)\n"
CODE = """\
import numpy as np


def f(x):
    return 3 * x**2 - 4 * x + 5


def df(x):
    # f'(x), worked out by hand (x may be a number or a numpy array)
{df}

def slope(f, x, h=1e-5):
    # the symmetric difference quotient of f at x (a number or a numpy array)
{slope}

xs = np.arange(-5, 5, 0.25)
"""
CHECKS = ("bool(np.allclose(df(xs), 6 * xs - 4))",
          "bool(np.allclose(slope(f, xs), 6 * xs - 4, atol=1e-6))")


def code(block: str, df_stub: str, slope_stub: str) -> str:
    """The warm-up's code with each body in the tool's markers: block(stub, solution) -> lines."""
    return CODE.format(df=block(df_stub, DF), slope=block(slope_stub, SLOPE))


def solved() -> str:
    """The warm-up as a student who solved it hands it in."""
    return CODE.format(df=DF, slope=SLOPE)
