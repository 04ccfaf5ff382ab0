"""Do the observations only the diagnosis reads (probes, the closures' call order) mean the same on every engine?

On the solutions (a student's right engine, run here as trusted code) and on the lecture's engine
the models are built from, every case's probes and call order agree: so a right closure's probes
never look like a mistake's, whatever engine made them.
"""
from __future__ import annotations

import math

from autograder import paths
from autograder.cases import PUBLIC_SEED, build_cases
from autograder.child.programs import DIAGNOSTIC
from autograder.engines import package_api
from autograder.goldens.compute import program
from reference.mistakes import CORRECT


def _agree(a, b) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_agree(x, y) for x, y in zip(a, b))
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def test_do_the_solutions_probe_and_walk_as_the_lecture_engine_does():
    solutions, lecture = package_api(paths.SOLUTIONS, "solutions"), CORRECT.api()
    seen = set()
    for case in build_cases(seed=PUBLIC_SEED, visibility="public", activation="tanh"):
        ours, theirs = program(case.program)(solutions, case.params), program(case.program)(lecture, case.params)
        for name in DIAGNOSTIC & set(ours):
            seen.add(name)
            assert _agree(ours[name], theirs[name]), (case.id, name, ours[name], theirs[name])
    assert seen == DIAGNOSTIC
