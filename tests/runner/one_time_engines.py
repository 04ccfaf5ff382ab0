"""Correct engines that do work once, on first use, as careful students write them (tests/runner/test_one_time.py).

Each is the kit's solution with code appended to engine.py; the work is a fixed amount (not a time), about
0.2 s of CPU on an idle machine (1.5 s for the long self-check), in the first call of something every later
case also calls: again in each fresh process.
"""
from __future__ import annotations

SELF_CHECK = '''
import math as _m

_checked = []
_backward = Value.backward


def _self_check():
    """Finite differences against backward() on a small expression, 0.2 s, on the first backward() only."""
    h = 1e-6
    for i in range(25_000):
        x0 = 0.3 + i * 4e-5
        x = Value(x0)
        y = (x * x + x).tanh() * x.exp()
        _backward(y)
        f = lambda v: _m.tanh(v * v + v) * _m.exp(v)
        numeric = (f(x0 + h) - f(x0 - h)) / (2 * h)
        assert abs(numeric - x.grad) < 1e-4 * max(1.0, abs(numeric)), (x0, numeric, x.grad)


def _checked_backward(self):
    if not _checked:
        _checked.append(True)
        _self_check()
    _backward(self)


Value.backward = _checked_backward
'''

FIRST_USE_CACHE = '''
_EXP_CACHE = {}
_exp = Value.exp


def _fill_cache():
    """exp of every multiple of 1/1000 in [-100, 100), by its series: 0.2 s, on the first exp() only."""
    for i in range(-100_000, 100_000):
        x = i / 1000
        term, total = 1.0, 1.0
        for k in range(1, 30):
            term *= x / k
            total += term
        _EXP_CACHE[x] = total


def _cached_exp(self):
    if not _EXP_CACHE:
        _fill_cache()
    return _exp(self)  # the cache is only warmed here: every answer is still math.exp's


Value.exp = _cached_exp
'''

LAZY_NUMPY = '''
_tanh = Value.tanh
_warm = []


def _numpy_tanh(self):
    if not _warm:
        import numpy as np  # on first use only: most runs never need it
        grid = np.linspace(-5.0, 5.0, 2_000_000)
        for _ in range(40):  # warm-up: numpy's first calls, and the student's check that it agrees
            assert abs(float(np.tanh(grid).sum())) < 1e-6
        _warm.append(np)
    return _tanh(self)


Value.tanh = _numpy_tanh
'''

LONG_SELF_CHECK = SELF_CHECK.replace("range(25_000)", "range(190_000)").replace("0.2 s,", "1.5 s,").replace(
    "4e-5", "5e-6")

ENGINES = {"self-check": SELF_CHECK, "long-self-check": LONG_SELF_CHECK, "first-use-cache": FIRST_USE_CACHE,
           "lazy-numpy": LAZY_NUMPY}

ENDLESS_RELU = '''

def _endless_relu(self):
    while True:  # an endless loop in every relu: its task's cases time out, the child is started again
        pass


Value.relu = _endless_relu
'''

