"""Do the probes of ops.local (for the diagnosis) leave the case's own observations as they were?

An engine may keep each grad in a mutable cell and hand that cell out (a 0-d numpy array
written in place). The probes run after the observations are taken, on a node made afresh:
whatever they do, the observed numbers are the ones the case produced.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from autograder.child.programs import ops


class CellValue:
    """A Value whose grad is a 0-d array written in place: reading it hands out the cell itself."""

    def __init__(self, data, _children=()):
        self.data = data
        self._grad = np.array(0.0)
        self._prev = tuple(_children)
        self._backward = lambda: None

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad[...] = value

    def __mul__(self, other):
        other = other if isinstance(other, CellValue) else CellValue(other)
        out = CellValue(self.data * other.data, (self, other))

        def _backward():
            self.grad = self.grad + other.data * out.grad
            other.grad = other.grad + self.data * out.grad
        out._backward = _backward
        return out


def test_are_the_observations_the_cases_own_whatever_the_probes_do():
    api = SimpleNamespace(Value=CellValue)
    p = {"op": "mul", "a": 2.0, "b": -3.0, "upstream": -2.0, "preset": [1.0, 1.0]}
    obs = ops.local(api, p)
    assert float(obs["a.grad"]) == 1.0 + -3.0 * -2.0 and float(obs["b.grad"]) == 1.0 + 2.0 * -2.0
    assert [float(x) for x in obs["probe"]] == [-3.0, 2.0, -6.0, 4.0, -2.0, 3.0]  # d, 2d, 1 + d for a and b
