"""The worked examples on a student's own numbers: drawn where [variants] says so, cross-checked against torch,
derived right, and a copied answer wrong for another student."""
from __future__ import annotations

import re

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.cases.worked import LECTURE, worked_numbers
from autograder.config import from_mapping
from autograder.exercises.variant_source import copy_solution
from autograder.goldens import GoldenStore, compute_goldens
from autograder.goldens.compute import MISTAKES
from autograder.grading import golden_groups, grade_path, select_cases
from autograder.scoring.compare import compare
from autograder.variants.assign import for_student, variant_of
from autograder.variants.model import Variant

WORKED = ("add/hand-L-graph", "mul/hand-L-graph", "neuron/hand-L-neuron", "neuron/hand-value-inputs")
COURSE = from_mapping({"hidden_seed": 424242, "variants": {"vary": ["op", "worked"], "points": 6}})
IDS = [f"student{i}" for i in range(40)]


def _worked_cases(variant: Variant, activation: str = "tanh") -> dict:
    cases = build_cases(seed=PUBLIC_SEED, visibility="public", activation=activation, variant=variant)
    return {c.id: c for c in cases if c.id in WORKED}


def test_does_the_instructor_choose_whether_the_worked_examples_vary():
    """"worked" in vary draws each student's own numbers; without it, every student has the lecture's."""
    drawn = [variant_of(COURSE, s) for s in IDS]
    assert all(v.worked is not None for v in drawn)
    assert len({worked_numbers(v.worked) for v in drawn}) == len(IDS)
    assert LECTURE not in {worked_numbers(v.worked) for v in drawn}
    plain = from_mapping({"hidden_seed": 424242, "variants": {"vary": ["op"]}})
    assert all(variant_of(plain, s).worked is None for s in IDS)
    assert worked_numbers(None) == LECTURE and Variant.from_json(drawn[0].to_json()) == drawn[0]


def test_are_every_students_numbers_easy_to_redo_on_paper():
    """Halves and small integers for L; the neuron's w . x + b positive (as the lecture's 0.8814: relu passes it)
    and of four decimals, so that its output differs from student to student."""
    zs = []
    for s in IDS:
        n = worked_numbers(variant_of(COURSE, s).worked)
        assert all(v and abs(v) <= 10 and v * 2 == int(v * 2) for v in (n.a, n.b, n.c, n.f, *n.x, *n.w))
        zs.append(round(n.x[0] * n.w[0] + n.x[1] * n.w[1] + n.bias, 4))
        assert 0.2 <= zs[-1] <= 2.0 and n.bias == round(n.bias, 4)
    assert len(set(zs)) == len(IDS)


@pytest.mark.parametrize("student", IDS[:12])
def test_does_torch_agree_on_every_students_worked_examples(student):
    """Every student's worked-example cases, on both activations: KitError if the reference and torch disagree."""
    variant = variant_of(COURSE, student)
    for activation in ("tanh", "relu"):
        goldens = compute_goldens(list(_worked_cases(variant, activation).values()), torch_check=True)
        assert set(goldens) == set(WORKED)


@pytest.mark.parametrize("student", IDS[:12])
def test_does_each_derivation_say_the_numbers_of_the_golden(student):
    """A student redoing the derivation on paper gets the golden: every grad it ends with is the golden's."""
    cases = _worked_cases(variant_of(COURSE, student))
    goldens = compute_goldens(list(cases.values()), torch_check=False)
    for case_id in ("add/hand-L-graph", "mul/hand-L-graph"):
        said = [float(x) for x in re.findall(r"= (-?[\d.]+)(?: and|\.$)", cases[case_id].derivation)]
        golden = goldens[case_id]
        assert said == pytest.approx([golden["a.grad"], golden["b.grad"]]), (case_id, cases[case_id].derivation)


def test_is_a_copied_worked_answer_wrong_for_another_student():
    """One student's right numbers, handed in as another's: they fail every worked case of the other's."""
    first, second = (variant_of(COURSE, s) for s in IDS[:2])
    mine = compute_goldens(list(_worked_cases(first).values()), torch_check=False)
    theirs = compute_goldens(list(_worked_cases(second).values()), torch_check=False)
    for case_id in WORKED:
        copied = {k: v for k, v in mine[case_id].items() if k != MISTAKES}
        expected = {k: v for k, v in theirs[case_id].items() if k != MISTAKES}
        assert compare(copied, expected, rel_tol=1e-6, abs_tol=1e-9), case_id  # a mismatch is reported
    lecture = compute_goldens(list(_worked_cases(Variant()).values()), torch_check=False)
    assert all(compare({k: v for k, v in lecture[i].items() if k != MISTAKES},
                       {k: v for k, v in mine[i].items() if k != MISTAKES}, rel_tol=1e-6, abs_tol=1e-9) for i in WORKED)


def test_are_only_a_students_own_cases_apart_from_the_class_shared_goldens():
    """The worked examples' cases and the extra operation's are the student's own set of goldens; the rest is
    the class's shared set, the base assignment's cases exactly."""
    rubric = for_student(COURSE, IDS[0])
    shared, own = golden_groups(select_cases(rubric, include_hidden=True), rubric)
    assert {c.task for c in own} == {"add", "mul", "neuron", rubric.variant.op}
    assert {c.id for c in own} - set(WORKED) == {c.id for c in own if c.task == rubric.variant.op}


def test_does_a_students_solution_get_full_marks_with_its_own_worked_numbers(tmp_path):
    """Graded as `autograder grade` grades it: public and hidden cases, the sandboxed child."""
    rubric = for_student(COURSE, IDS[3])
    report = grade_path(copy_solution(tmp_path / "sub", rubric.variant), rubric=rubric, include_hidden=True,
                        store=GoldenStore(tmp_path / "cache"))
    assert report.error is None and report.score == report.max_score == rubric.max_score
    assert "worked examples" in rubric.variant.label
