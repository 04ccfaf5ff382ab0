"""A student's variant: drawn from the course's secret and the student's id, the same every time."""
from __future__ import annotations

import pytest

from autograder.config import Rubric, from_mapping
from autograder.tasks import VARIANT_OPS
from autograder.variants.assign import for_student, variant_of
from autograder.variants.draw import STEPS, draw
from autograder.variants.settings import DEFAULT_POOL, SECRET_ENV, VariantsConfig, VariantsError

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
IDS = [f"student{i}" for i in range(300)]


def test_is_a_students_variant_the_same_on_every_draw():
    """Is the draw deterministic, and blind to blanks and letter case around the id?"""
    assert variant_of(COURSE, "ada_7") == variant_of(COURSE, "ada_7")
    assert variant_of(COURSE, " ADA_7 ").op == variant_of(COURSE, "ada_7").op
    assert variant_of(COURSE, " ADA_7 ").constant == variant_of(COURSE, "ada_7").constant


def test_does_another_secret_give_other_variants():
    """Without the secret, an id alone does not tell its variant: another secret draws others."""
    a = [draw(VariantsConfig(), s, "secret-one") for s in IDS]
    b = [draw(VariantsConfig(), s, "secret-two") for s in IDS]
    assert sum((x.op, x.constant) == (y.op, y.constant) for x, y in zip(a, b)) <= 1


def test_are_the_pool_and_the_constants_spread_over_a_class():
    """Does a class of 300 get every operation of the pool, each constant in its range, rarely shared?"""
    variants = [variant_of(COURSE, s) for s in IDS]
    assert {v.op for v in variants} == set(DEFAULT_POOL)
    for v in variants:
        lo, hi = VARIANT_OPS[v.op].between
        assert lo <= v.constant <= hi
    assert len({(v.op, v.constant) for v in variants}) >= len(IDS) - 2
    assert {v.activation for v in variants} == {"tanh", "relu"}
    assert STEPS >= 100_000


def test_does_a_new_operation_leave_the_students_of_a_default_pool_their_variants():
    """The default pool is the five operations variants began with (a course's students keep theirs when the kit
    adds one); a pool that names "power" draws it too, each exponent in its range, none the lecture's 2."""
    assert DEFAULT_POOL == ("sigmoid", "softplus", "log", "sin", "leaky_relu") and "power" in VARIANT_OPS
    assert variant_of(COURSE, "student0") == draw(VariantsConfig(pool=DEFAULT_POOL), "student0", "424242")
    with_power = from_mapping({"hidden_seed": 424242, "variants": {"pool": [*DEFAULT_POOL, "power"]}})
    powers = [v for v in (variant_of(with_power, s) for s in IDS) if v.op == "power"]
    assert len(powers) >= 30 and all(2.5 <= v.constant <= 4.5 for v in powers)
    assert len({v.constant for v in powers}) == len(powers)


def test_does_the_instructor_choose_which_dimensions_vary():
    course = from_mapping({"hidden_seed": 424242, "variants": {"vary": ["seed"], "activations": ["relu"]}})
    v = variant_of(course, "ada_7")
    assert (v.op, v.activation) == ("", "") and v.seed is not None
    only_relu = from_mapping({"hidden_seed": 1, "variants": {"vary": ["activation"], "activations": ["relu"]}})
    assert {variant_of(only_relu, s).activation for s in IDS[:20]} == {"relu"}


def test_does_a_students_rubric_carry_the_extra_operations_points_and_activation():
    r = for_student(COURSE, "ada_7")
    assert list(r.points)[-1] == r.variant.op and r.points[r.variant.op] == 6
    assert r.activation == r.variant.activation
    assert r.max_score == Rubric().max_score + 6


def test_is_a_course_without_variants_graded_as_before():
    """Without [variants], a student's rubric is the course's, unchanged (the base assignment)."""
    course = from_mapping({"hidden_seed": 424242})
    assert for_student(course, "ada_7") is course


def test_does_a_draw_without_any_secret_say_what_to_set(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    with pytest.raises(VariantsError, match=SECRET_ENV):
        variant_of(from_mapping({"variants": {}}), "ada_7")
    monkeypatch.setenv(SECRET_ENV, "from-the-environment")
    assert variant_of(from_mapping({"variants": {}}), "ada_7").op


@pytest.mark.parametrize("table, says", [
    ({"pool": ["cosh"]}, "unknown"), ({"vary": []}, "non-empty"), ({"points": -1}, ">= 0"),
    ({"colour": 1}, "unknown key"), ({"secret": "short"}, "8 characters"),
])
def test_is_a_wrong_variants_table_one_line(table, says):
    with pytest.raises(VariantsError, match=says):
        from_mapping({"variants": table})


def test_does_the_students_rubric_file_keep_the_table_but_never_the_secret():
    from autograder.config import rubric_toml
    course = from_mapping({"hidden_seed": 5, "variants": {"secret": "do-not-ship-this"}})
    text = rubric_toml(for_student(course, "ada_7"), with_seed=False)
    assert "[variants]" in text and "do-not-ship-this" not in text and "hidden_seed" not in text
    assert from_mapping(__import__("tomllib").loads(text)).variants.points == 5
