"""The worked examples' numbers: the lecture's, or a student's own.

Karpathy's lecture works two examples by hand, and the hand cases redo them: the graph
L = (a*b + c) * f (add's and mul's `hand-L-graph`) and the neuron tanh(x1*w1 + x2*w2 + b)
(neuron's `hand-L-neuron`, `hand-value-inputs`). With "worked" in [variants] each student
gets the same two graphs on numbers of their own, drawn from their variant's `worked`
draw, so that an answer copied from the lecture or from another student is wrong for them.
The numbers stay easy to redo on paper: halves and small integers; the neuron's w . x + b is
a number of four decimals between 0.2 and 2 (positive, as the lecture's 0.8814 is, so that relu
passes it on too), its bias whatever makes it so: the neuron observes only its output, which
must differ from student to student.
"""
from __future__ import annotations

import random
from dataclasses import dataclass



@dataclass(frozen=True)
class Worked:
    # L = (a*b + c) * f
    a: float = 2.0
    b: float = -3.0
    c: float = 10.0
    f: float = -2.0
    # the neuron tanh(x1*w1 + x2*w2 + b)
    x: tuple[float, float] = (2.0, 0.0)
    w: tuple[float, float] = (-3.0, 1.0)
    bias: float = 6.8813735870195432  # the lecture's, as published


LECTURE = Worked()


def worked_numbers(draw: int | None) -> Worked:
    """The lecture's numbers (draw None), or a student's own, the same for the same draw."""
    if draw is None:
        return LECTURE
    rng = random.Random(f"backprop-kit worked examples/{draw}")

    def half(lo: float, hi: float) -> float:  # a nonzero multiple of 0.5 in [lo, hi]
        return rng.choice([k / 2 for k in range(int(2 * lo), int(2 * hi) + 1) if k])
    while True:
        a, b, f = half(-4, 4), half(-4, 4), half(-3, 3)
        c = float(rng.choice([k for k in range(-10, 11) if k]))
        x, w = (half(-3, 3), half(-2, 2)), (half(-3, 3), half(-2, 2))
        n = round(rng.uniform(0.2, 2.0), 4)  # w . x + b
        numbers = Worked(a, b, c, f, x, w, round(n - (x[0] * w[0] + x[1] * w[1]), 4))
        # every grad of L nonzero (d = a*b + c is dL/df), and neither example the lecture's
        if a * b + c and (a, b, c, f) != (LECTURE.a, LECTURE.b, LECTURE.c, LECTURE.f) and (x, w) != (LECTURE.x,
                                                                                                     LECTURE.w):
            return numbers
