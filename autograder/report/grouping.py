"""Failing cases that say the same thing, said once.

A submission whose nn.py does not import fails every nn case with the same
message: a reader wants that message once, with how many cases it cost, not
27 copies. Cases merge when their status, message, details and printed output
are all the same.
"""
from __future__ import annotations

from typing import Iterable

from autograder.report.model import CaseResult


def same_problems(cases: Iterable[CaseResult]) -> list[tuple[CaseResult, int]]:
    """(first case, how many cases say exactly this), in the order the problems first appear."""
    groups: dict[tuple, list] = {}
    for case in cases:
        # a passed case has nothing to say: it stays a row of its own
        key = (case.id,) if case.status == "passed" else (case.status, case.message, case.details, case.output)
        if key in groups:
            groups[key][1] += 1
        else:
            groups[key] = [case, 1]
    return [(case, n) for case, n in groups.values()]
