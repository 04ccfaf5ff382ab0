"""Is every case's hint shown only where what the case observed fits it (issue 29)?"""
from __future__ import annotations

import math

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.cases.hint_when import AGREES, WHEN, Seen
from autograder.diagnosis.catalogue import IDS

close = lambda a, b: math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)  # noqa: E731


def _seen(obs, golden, params=None, status="failed", **kw) -> Seen:
    return Seen(status=status, obs=obs, golden=golden, params=params or {}, close=close, **kw)


@pytest.mark.parametrize("visibility", ["public", "hidden"])
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_does_every_hint_of_the_case_library_have_a_condition(visibility, activation):
    cases = build_cases(seed=PUBLIC_SEED, visibility=visibility, activation=activation)
    assert cases
    without = [c.id for c in cases if c.hint and c.hint_when not in WHEN]
    assert not without


def test_does_every_variant_operations_hint_have_a_condition():
    from autograder.cases.variant_op import hand_cases
    from autograder.tasks import VARIANT_OPS

    for task in VARIANT_OPS:
        assert all(c.hint_when in WHEN for c in hand_cases(task, 2.0)), task


def test_does_every_condition_say_which_named_mistakes_it_agrees_with():
    assert set(AGREES) == set(WHEN)
    assert not {m for ids in AGREES.values() for m in ids} - set(IDS)


def test_is_a_hint_made_with_an_unknown_condition_refused():
    from autograder.cases.hints import Hint

    with pytest.raises(ValueError):
        Hint("use +=", "whenever")


# probes: (grad before, out.grad) = (0, 1), (0, 2), (1, 1); one grad per input each round
RIGHT_MUL = [-3.0, 2.0, -6.0, 4.0, -2.0, 3.0]   # a = 2, b = -3: d = (b, a)


def test_is_the_plus_equals_hint_shown_only_where_a_grad_already_there_was_lost():
    added_without_upstream = [-3.0, 2.0, -3.0, 2.0, -2.0, 3.0]     # self.grad += other.data
    replaced = [-3.0, 2.0, -6.0, 4.0, -3.0, 2.0]                   # self.grad = other.data * out.grad
    assert not WHEN["replaced"](_seen({}, {}, probes=((added_without_upstream, RIGHT_MUL),)))
    assert WHEN["replaced"](_seen({}, {}, probes=((replaced, RIGHT_MUL),)))
    # no probes: the case's own numbers (a grad already there of 1, the share 12, the total 13)
    assert WHEN["replaced"](_seen({"a.grad": 12.0, "b.grad": 1.5}, {"a.grad": 13.0, "b.grad": 2.5},
                                  {"preset": [1.0, 1.0]}))
    # kept, but without out.grad: b's 1 + 0.5 happens to equal the share a replacing closure leaves; a's does not
    assert not WHEN["replaced"](_seen({"a.grad": 5.0, "b.grad": 1.5}, {"a.grad": 13.0, "b.grad": 2.5},
                                      {"preset": [1.0, 1.0]}))


def test_is_the_rule_hint_shown_only_where_the_local_derivative_or_its_scaling_is_wrong():
    assert not WHEN["rule"](_seen({}, {}, probes=(([-3.0, 2.0, -6.0, 4.0, -3.0, 2.0], RIGHT_MUL),)))
    assert WHEN["rule"](_seen({}, {}, probes=(([-3.0, 2.0, -3.0, 2.0, -2.0, 3.0], RIGHT_MUL),)))


def test_is_the_reflected_hint_shown_only_where_a_number_on_the_left_failed():
    left = {"const": 3.0, "const_side": "left"}
    assert WHEN["number_left"](_seen({}, {}, left, status="error"))
    assert not WHEN["number_left"](_seen({"a.grad": 1.0}, {"a.grad": 4.0}, left))  # it ran: the method exists
    assert not WHEN["number_left"](_seen({}, {}, {"const": 3.0, "const_side": "right"}, status="error"))


def test_is_the_prev_hint_shown_only_where_the_kits_own_walk_passed_and_a_leaf_was_not_reached():
    unreached = ({"leaf_grads": [0.0, 2.0]}, {"leaf_grads": [1.5, 2.0]})
    assert WHEN["walk_not_found"](_seen(*unreached, own_passed=True))
    assert not WHEN["walk_not_found"](_seen({"leaf_grads": [1.0, 2.0]}, unreached[1], own_passed=True))
    assert not WHEN["walk_not_found"](_seen(*unreached, own_passed=False))
    assert not WHEN["walk_not_found"](_seen(*unreached, own_passed=True, counted=False))  # backward() fails itself


def test_is_the_visited_hint_shown_only_where_a_closure_ran_twice():
    nodes = {"leaves": [1.0, 2.0], "nodes": [{"args": [0]}, {"args": [0]}, {"args": [2, 3]}]}
    assert WHEN["visited_twice"](_seen({"closure_calls": [2.0, 1.0, 0.0, 0.0]}, {}, nodes))
    assert not WHEN["visited_twice"](_seen({"closure_calls": [0.0, 1.0, 2.0]}, {}, nodes))
    assert WHEN["order_wrong"](_seen({"closure_calls": [0.0, 1.0, 2.0]}, {}, nodes))
    assert not WHEN["order_wrong"](_seen({"closure_calls": [2.0, 1.0, 0.0]}, {}, nodes))

