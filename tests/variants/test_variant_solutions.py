"""Is every variant a sound assignment: cross-checked against torch, and its own solution's full marks?"""
from __future__ import annotations

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.config import from_mapping
from autograder.engines import package_api
from autograder.exercises.variant_source import copy_solution, write_package
from autograder.goldens import GoldenStore, compute_goldens
from autograder.grading import grade_path
from autograder.tasks import VARIANT_OPS
from autograder.variants.assign import with_variant
from autograder.variants.model import BASE, Variant

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
EDGES = [(op, c) for op, spec in VARIANT_OPS.items() for c in spec.between]


def _variant(op: str, constant: float, activation: str = "relu") -> Variant:
    return Variant(student=f"{op}-{constant}", op=op, constant=constant, activation=activation)


@pytest.mark.parametrize("op, constant", EDGES)
def test_does_torch_agree_with_the_reference_on_every_variant(op, constant):
    """Every case of the extra operation, at both ends of its constant's range: KitError if torch disagrees."""
    variant = _variant(op, constant)
    cases = [c for vis, seed in (("public", PUBLIC_SEED), ("hidden", 424242))
             for c in build_cases(seed=seed, visibility=vis, variant=variant) if c.task == op]
    assert len(cases) >= 8
    goldens = compute_goldens(cases, torch_check=True)
    assert all(g["out"] for g in goldens.values())


@pytest.mark.parametrize("op, constant", EDGES)
def test_does_the_variants_solution_compute_every_golden(op, constant, tmp_path):
    """The solution engine of each variant, run in this process (trusted code), gives every golden."""
    from autograder.goldens.compute import program
    variant = _variant(op, constant)
    api = package_api(write_package(tmp_path, variant, solution=True).parent, "solution")
    cases = [c for c in build_cases(seed=PUBLIC_SEED, visibility="public", variant=variant) if c.task == op]
    goldens = compute_goldens(cases, torch_check=False)
    for case in cases:
        got = program(case.program)(api, case.params)
        for name, want in goldens[case.id].items():
            if name != "mistakes":
                assert got[name] == pytest.approx(want, rel=1e-9, abs=1e-12), (case.id, name)


@pytest.mark.parametrize("op", list(VARIANT_OPS))
def test_does_every_variants_solution_get_full_marks_on_its_own_variant(op, tmp_path):
    """Graded as `autograder grade` grades it (public and hidden cases, the sandboxed child)."""
    rubric = with_variant(COURSE, _variant(op, sum(VARIANT_OPS[op].between) / 2, "tanh" if op == "sin" else "relu"))
    report = grade_path(copy_solution(tmp_path / "sub", rubric.variant), rubric=rubric, include_hidden=True,
                        store=GoldenStore(tmp_path / "cache"))
    assert report.error is None
    assert (report.score, report.max_score) == (rubric.max_score, rubric.max_score)
    assert report.tasks[-1].id == op and report.variant == rubric.variant


def test_does_another_students_constant_lose_the_extra_operations_marks(tmp_path):
    """The same operation with another constant: the copy computes another function, and loses that task."""
    mine, theirs = _variant("sigmoid", 2.0), _variant("sigmoid", 2.5)
    report = grade_path(copy_solution(tmp_path / "sub", theirs), rubric=with_variant(COURSE, mine),
                        include_hidden=True, store=GoldenStore(tmp_path / "cache"))
    scores = {t.id: t.score for t in report.tasks}
    assert scores["sigmoid"] == 0 and report.score == COURSE.max_score


def test_is_the_base_assignment_the_variant_with_nothing_varied():
    """build_cases with the base variant is the base assignment's, case for case."""
    assert BASE.is_base and BASE.tasks == () and BASE.label == "the base assignment"
    assert build_cases(seed=PUBLIC_SEED, visibility="public") == \
        build_cases(seed=PUBLIC_SEED, visibility="public", variant=BASE)
