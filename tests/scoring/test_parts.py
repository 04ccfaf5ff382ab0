"""Do a task's parts give every score the kit can give it, exactly, as otter adds them up?"""
from __future__ import annotations

from fractions import Fraction

import pytest

from autograder.scoring.parts import denomination, paid, parts, units


@pytest.mark.parametrize("total", [1, 2, 3, 7, 8, 13, 60, 371280, 2 ** 20 - 1])
def test_do_the_parts_sum_to_the_whole_and_make_every_score_in_between(total):
    assert sum(parts(total)) == total
    for u in (range(total + 1) if total < 5000 else [0, 1, total // 3, total // 2 + 1, total - 1, total]):
        flags = paid(total, u)
        assert len(flags) == len(parts(total))
        assert sum(p for p, f in zip(parts(total), flags) if f) == u


@pytest.mark.parametrize("own, end_to_end", [(13, 4), (12, 4), (13, 0), (9, 2), (1, 0)])
def test_is_every_score_the_kit_can_give_a_whole_number_of_units(own, end_to_end):
    """passed of counted, counted anywhere from own to own + end_to_end (the end-to-end cases charged to
    backward()): the parts' points, added as otter adds them, give points * passed / counted."""
    total = denomination(own, end_to_end)
    points = 5.0
    for counted in range(own, own + end_to_end + 1):
        for passed in range(counted + 1):
            u = units(passed, counted, total)
            assert Fraction(u, total) == Fraction(passed, counted)
            otter = sum(points * p / total for p, f in zip(parts(total), paid(total, u)) if f)
            assert round(otter, 5) == round(points * passed / counted, 5)


def test_does_a_count_the_parts_were_not_made_for_say_so():
    assert units(1, 3, denomination(4, 0)) is None
    with pytest.raises(ValueError):
        paid(7, 8)
