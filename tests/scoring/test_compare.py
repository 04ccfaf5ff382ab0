"""Does the comparison pass exactly what agrees with the golden, and say plainly what does not?"""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.runner.protocol import BadValue
from autograder.scoring.compare import MAX_LINES, compare

TOL = {"rel_tol": 1e-6, "abs_tol": 1e-8}


def test_does_agreement_within_the_tolerance_pass_and_beyond_it_fail():
    assert compare({"a.grad": 6.000001}, {"a.grad": 6.0}, **TOL) == []
    assert compare({"a.grad": 6.1}, {"a.grad": 6.0}, **TOL) == ["a.grad: got 6.1, expected 6"]
    assert compare({"a.grad": 1e-9}, {"a.grad": 0.0}, **TOL) == []  # abs_tol near 0


def test_do_nan_and_infinities_never_pass():
    for bad in (math.nan, math.inf, -math.inf):
        (line,) = compare({"out": bad}, {"out": 1.0}, **TOL)
        assert "never pass" in line


def test_is_a_value_that_is_not_a_number_named_for_what_it_was():
    (line,) = compare({"out": BadValue("str", "'6'")}, {"out": 6.0}, **TOL)
    assert line == "out: got '6' (a str, not a number), expected the number 6"


def test_is_an_observation_the_code_never_made_said():
    assert compare({}, {"b.grad": 1.0}, **TOL) == ["b.grad: your code produced nothing for it"]


def test_does_a_list_name_its_first_wrong_node_and_count_the_others():
    golden = {"leaf_grads": [1.0, 2.0, 3.0], "node_grads": [0.5]}
    (line,) = compare({"leaf_grads": [1.0, 0.0, 0.0], "node_grads": [0.5]}, golden, **TOL)
    assert line == "x1.grad: got 0, expected 2 (2 of 3 entries differ)"
    (short,) = compare({"leaf_grads": [1.0], "node_grads": [0.5]}, golden, **TOL)
    assert short.startswith("leaf_grads: got 1 values, expected 3")
    (scalar,) = compare({"leaf_grads": 1.0, "node_grads": [0.5]}, golden, **TOL)
    assert scalar == "leaf_grads: got 1, expected a list of 3 numbers"


def test_are_many_mismatches_cut_to_a_few_lines():
    golden = {f"p{i}": 1.0 for i in range(20)}
    lines = compare({k: 2.0 for k in golden}, golden, **TOL)
    assert len(lines) == MAX_LINES + 1 and lines[-1] == "..."


def test_does_the_quick_path_for_right_numbers_judge_every_shape_as_before():
    """Right numbers are passed at once (no message built per entry): do lists with one wrong entry, a NaN, an
    int, a BadValue or a nested list amid right ones still get the same lines?"""
    right = [1.0, -2.0, 3.5]
    assert compare({"g": list(right)}, {"g": right}, **TOL) == []
    assert compare({"g": [1, -2, 3.5]}, {"g": right}, **TOL) == []  # ints: the slow path, the same answer
    assert compare({"g": [1.0, -2.0, 3.6]}, {"g": right}, **TOL) == ["g[2]: got 3.6, expected 3.5"]
    (nan,) = compare({"g": [1.0, math.nan, 3.5]}, {"g": right}, **TOL)
    assert nan.startswith("g[1]: got nan")
    (bad,) = compare({"g": [1.0, BadValue("str", "'x'"), 3.5]}, {"g": right}, **TOL)
    assert bad.startswith("g[1]: got 'x'")
    assert compare({"g": [[1.0], [2.0]]}, {"g": [[1.0], [2.0]]}, **TOL) == []
    assert compare({"g": [[1.0], [2.5]]}, {"g": [[1.0], [2.0]]}, **TOL) != []
    assert compare({"g": [1.0, -2.0]}, {"g": right}, **TOL)[0].startswith("g: got 2 values, expected 3")
    assert compare({"g": 1.0}, {"g": right}, **TOL)[0].startswith("g: got 1, expected a list")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(allow_nan=True, allow_infinity=True, width=64),
                          st.floats(min_value=-1e6, max_value=1e6)), min_size=1, max_size=8))
def test_does_a_list_pass_exactly_when_every_entry_is_finite_and_close(pairs):
    got, expected = [g for g, _ in pairs], [e for _, e in pairs]
    agrees = all(math.isfinite(g) and math.isclose(g, e, **TOL) for g, e in pairs)
    assert (compare({"g": got}, {"g": expected}, **TOL) == []) == agrees
