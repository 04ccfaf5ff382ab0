"""Does the kit point at the node whose own step is the first wrong one, and only when the evidence singles it out?

The small graphs below are built by hand, with numbers worked out here; the corpus test
(tests/corpus/test_origin_on_variants.py) checks the origin on every single-mistake variant.
"""
from __future__ import annotations

import math

from autograder.cases.case_graph import case_graph
from autograder.cases.model import Case


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


# x0 = 2, x1 = -3; n0 = x0 * x1 (-6); n1 = 0.5*n0 + 1*x0 (-1); n2 = n1 * x1 (3), the output.
DIAMOND = {"op": "mul", "leaves": [2.0, -3.0], "upstream": 2.0,
           "nodes": [{"args": [0, 1]}, {"args": [2, 0], "coefs": [0.5, 1.0]}, {"args": [3, 1]}]}


def graph_of(leaf_grads, node_grads, params=DIAMOND, program="ops.graph", task="mul", golden=None):
    case = Case(f"{task}/test", task, program, params)
    obs = {"out": 3.0, "leaf_grads": leaf_grads, "node_grads": node_grads}
    return case_graph(case, obs, golden or right(), close)


def right():
    """The right grads of DIAMOND with upstream 2: n2 = 2; n1 = 2 * x1 = -6; x1 gets n1 * 2 = -2 from n2;
    n0 = 0.5 * -6 = -3; x0 = 1 * -6 + -3 * x1 = -6 + 9 = 3; x1 = -2 + -3 * x0 = -2 - 6 = -8."""
    return {"out": 3.0, "leaf_grads": [3.0, -8.0], "node_grads": [-3.0, -6.0, 2.0]}


def test_does_a_right_graph_have_no_origin():
    graph = graph_of([3.0, -8.0], [-3.0, -6.0, 2.0])
    assert graph.origin == "" and not graph.step


def test_is_the_output_step_the_origin_when_its_own_step_is_wrong_and_the_rest_follows():
    """n2's step hands n1 its own data times 2 (-2, not x1 * 2 = -6), and x1 the right -2; n1's mix step
    hands on the wrong -2 correctly (n0 -1, x0 -2), and n0's step is right for the grad it got (x0 += -3 * -1,
    x1 += 2 * -1): n2 is the origin, and the rest follows from it."""
    graph = graph_of([1.0, -4.0], [-1.0, -2.0, 2.0])
    assert graph.origin == "n2"
    assert set(graph.after) == {"n1", "n0", "x0", "x1"}
    assert graph.step == ("the first wrong step is at n2 = n1 * x1: with n2.grad = 2, n1.grad should be -6 and is -2; "
                          "the wrong grads further down follow from it")


def test_is_a_lower_wrong_step_the_origin_when_everything_above_it_is_right():
    """Only n0's step is wrong: it hands x0 nothing (x0 keeps n1's -6) and x1 the right -3 * 2 = -6.
    n1 is the kit's own mix node, so x0's wrong grad can only be n0's doing."""
    graph = graph_of([-6.0, -8.0], [-3.0, -6.0, 2.0])
    assert graph.origin == "n0" and graph.after == ("x0",)
    assert graph.step == ("the first wrong step is at n0 = x0 * x1: with n0.grad = -3, x0.grad should be 3 "
                          "(with what the other nodes hand it) and is -6")


def test_is_there_no_origin_when_a_wrong_grad_may_come_from_a_step_above():
    """n0's step hands x0 and x1 nothing. x0 says n0 is wrong; x1 is off too, and n2 (above n0) also hands
    x1 a grad: n2 could be wrong as well, so n0 is not named the first."""
    graph = graph_of([-6.0, -2.0], [-3.0, -6.0, 2.0])
    assert set(graph.wrong) == {"x0", "x1"} and graph.origin == ""


def test_is_there_no_origin_when_no_wrong_step_gives_the_numbers():
    """A backward() walk on the kit's nodes. x1 is off and nothing else: both n0 and n2 hand x1 a grad, but a
    wrong run of either would put its other child off too. No wrong step of the walk gives these numbers, so
    none is named."""
    params = {"leaves": [2.0, -3.0], "calls": 1,
              "nodes": [{"args": [0, 1], "coefs": [1.0, 1.0]}, {"args": [2, 0], "coefs": [0.5, 1.0]},
                        {"args": [3, 1], "coefs": [2.0, 1.0]}]}
    # right: n2 = 1; n1 = 2; x1 += 1 from n2; n0 = 1; x0 = 2 + 1 = 3; x1 = 1 + 1 = 2
    golden = {"leaf_grads": [3.0, 2.0], "node_grads": [1.0, 2.0, 1.0], "root.grad": 1.0}
    case = Case("backward/test", "backward", "backward.graph", params)
    obs = {"leaf_grads": [3.0, 5.0], "node_grads": [1.0, 2.0, 1.0], "root.grad": 1.0}
    graph = case_graph(case, obs, golden, close)
    assert graph.wrong == ("x1",) and graph.origin == ""


def test_is_a_missing_seed_the_origin_at_the_output():
    params = {"leaves": [2.0, -3.0], "calls": 1, "nodes": [{"args": [0, 1], "coefs": [1.0, 1.0]}]}
    golden = {"leaf_grads": [1.0, 1.0], "node_grads": [1.0], "root.grad": 1.0}
    case = Case("backward/test", "backward", "backward.graph", params)
    graph = case_graph(case, {"leaf_grads": [0.0, 0.0], "node_grads": [0.0], "root.grad": 0.0}, golden, close)
    assert graph.origin == "n0" and set(graph.after) == {"x0", "x1"}
    assert graph.step.startswith("the first wrong step is the first one, at the output: n0.grad should be 1")


def test_is_there_no_origin_when_the_forward_value_is_wrong():
    case = Case("mul/test", "mul", "ops.local", {"op": "mul", "a": 2.0, "b": 3.0, "upstream": 2.0})
    graph = case_graph(case, {"out": 5.0, "a.grad": 1.0, "b.grad": 4.0},
                       {"out": 6.0, "a.grad": 6.0, "b.grad": 4.0}, close)
    assert graph.wrong and graph.origin == ""


def test_is_a_one_operation_case_pointed_at_its_one_step():
    case = Case("mul/test", "mul", "ops.local", {"op": "mul", "a": 2.0, "b": 3.0, "upstream": 2.0,
                                                "preset": [0.5, 1.0]})
    graph = case_graph(case, {"out": 6.0, "a.grad": 6.0, "b.grad": 4.0},  # = for +=: the presets lost
                       {"out": 6.0, "a.grad": 6.5, "b.grad": 5.0}, close)
    assert graph.origin == "out" and set(graph.after) == {"a", "b"}
    assert graph.step == "the first wrong step is at out = a * b: with out.grad = 2, a.grad should be 6.5 and is 6"


def test_does_a_case_without_observed_inner_grads_get_no_origin():
    """ops.through_backward observes the leaves only: the steps between can't be checked."""
    case = Case("mul/test", "mul", "ops.through_backward", DIAMOND)
    graph = case_graph(case, {"out": 3.0, "leaf_grads": [0.0, 0.0]}, {"out": 3.0, "leaf_grads": [3.0, -8.0]},
                       close)
    assert graph.wrong and graph.origin == ""
