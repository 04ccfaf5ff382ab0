"""Compare what a student's code observed with the golden, number by number.

Only floats the parent parsed itself are compared. NaN and infinities never
pass (no golden is one), and a value that is not a number says what it was.
"""
from __future__ import annotations

import math

from autograder.cases.graph_text import entry_name
from autograder.goldens.compute import MISTAKES
from autograder.runner.protocol import BadValue

MAX_LINES = 6


def compare(obs: dict, golden: dict, *, rel_tol: float, abs_tol: float) -> list[str]:
    """One line per mismatch ('a.grad: got 6, expected -6'); [] when all agree."""
    problems: list[str] = []
    for name, expected in golden.items():
        if name == MISTAKES:  # what the classic mistakes would observe: for the diagnosis only
            continue
        if name not in obs:
            problems.append(f"{name}: your code produced nothing for it")
            continue
        if not _agrees(obs[name], expected, rel_tol, abs_tol):
            problems += _compare_value(name, obs[name], expected, rel_tol, abs_tol)
        if len(problems) > MAX_LINES:  # one past the cut, so that "..." says there are more
            break
    if len(problems) > MAX_LINES:
        problems = problems[:MAX_LINES] + ["..."]
    return problems


def closeness(*, rel_tol: float, abs_tol: float):
    """close(a, b): are two numbers the same within the rubric's tolerances, as compare() judges them?"""
    def close(a: float, b: float) -> bool:
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    return close


def _agrees(got, expected, rel_tol: float, abs_tol: float) -> bool:
    """True when _compare_value would find nothing wrong, for the common shapes only (a finite float, or a list
    of them, within the tolerances of the golden's numbers): most of a class's numbers are right, and this
    says so without building a message per entry. False means: ask _compare_value (it may still agree)."""
    isclose, isfinite, num = math.isclose, math.isfinite, float
    if type(got) is num:
        return type(expected) is not list and isfinite(got) and isclose(got, expected, rel_tol=rel_tol, abs_tol=abs_tol)
    if type(got) is list and type(expected) is list and len(got) == len(expected):
        for g, e in zip(got, expected):
            if type(g) is not num or type(e) is list or not isfinite(g) \
                    or not isclose(g, e, rel_tol=rel_tol, abs_tol=abs_tol):
                return False
        return True
    return False


def _compare_value(name, got, expected, rel_tol, abs_tol) -> list[str]:
    if isinstance(expected, list):
        if not isinstance(got, list):
            return [f"{name}: got {_show(got)}, expected a list of {len(expected)} numbers"]
        if len(got) != len(expected):
            return [f"{name}: got {len(got)} values, expected {len(expected)}: got {_show(got)}, expected {_show(expected)}"]
        wrong = [
            i for i, (g, e) in enumerate(zip(got, expected))
            if _compare_value(name, g, e, rel_tol, abs_tol)
        ]
        if not wrong:
            return []
        i = wrong[0]
        more = f" ({len(wrong)} of {len(expected)} entries differ)" if len(wrong) > 1 else ""
        return [f"{entry_name(name, i)}: got {_show(got[i])}, expected {_show(expected[i])}{more}"]
    if isinstance(got, BadValue):
        return [f"{name}: got {got}, expected the number {_show(expected)}"]
    if isinstance(got, list):
        return [f"{name}: got a list {_show(got)}, expected the number {_show(expected)}"]
    if not math.isfinite(got):
        return [f"{name}: got {got}, expected {_show(expected)} (NaN and infinities never pass)"]
    if math.isclose(got, expected, rel_tol=rel_tol, abs_tol=abs_tol):
        return []
    return [f"{name}: got {_show(got)}, expected {_show(expected)}"]


def _show(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        shown = ", ".join(_show(v) for v in value[:6])
        return f"[{shown}{', ...' if len(value) > 6 else ''}]"
    return str(value)
