"""Do the reference and torch agree on the worked examples, and with the numbers derived by hand?"""
from __future__ import annotations

import pytest
import torch

from autograder.child.programs.worked import WORKED
from autograder.engines import reference_api, torch_api
from autograder.selfcheck import agree, run_selfcheck

REF = reference_api()
TORCH = torch_api()

# The published numbers: Karpathy's lecture, micrograd's README, and simple calculus.
BY_HAND = {
    "worked_L": {"L": -8.0, "a.grad": 6.0, "b.grad": -4.0, "c.grad": -2.0, "f.grad": 4.0},
    "worked_neuron": {"o": 0.7071, "x1.grad": -1.5, "x2.grad": 0.5, "w1.grad": 1.0, "w2.grad": 0.0, "b.grad": 0.5},
    "worked_readme": {"g": 24.7041, "a.grad": 138.8338, "b.grad": 645.5773},
    "worked_square": {"y": 9.0, "x.grad": 6.0},
    "worked_x_plus_2_times_x": {"y": 15.0, "x.grad": 8.0},
    "worked_a_plus_a": {"b": 6.0, "a.grad": 2.0},
}


def test_every_worked_example_has_hand_values():
    """Is every worked example checked against numbers derived by hand?"""
    assert set(BY_HAND) == set(WORKED)


@pytest.mark.parametrize("name", WORKED)
def test_reference_agrees_with_torch(name):
    """Does the reference agree with torch on this worked example, quantity by quantity?"""
    ref, tor = WORKED[name](REF, {}), WORKED[name](TORCH, {})
    assert ref.keys() == tor.keys()
    for quantity in ref:
        assert agree(ref[quantity], tor[quantity]), f"{quantity}: reference {ref[quantity]!r}, torch {tor[quantity]!r}"


@pytest.mark.parametrize("api", [REF, TORCH], ids=lambda api: api.name)
@pytest.mark.parametrize("name", WORKED)
def test_engine_gives_the_hand_derived_values(name, api):
    """Does this engine give the numbers derived by hand (to the 4 decimals they are published with)?"""
    got = WORKED[name](api, {})
    assert got.keys() == BY_HAND[name].keys()
    for quantity, expected in BY_HAND[name].items():
        assert got[quantity] == pytest.approx(expected, abs=1e-4), quantity


def test_karpathys_L_graph_with_other_values():
    """Does worked_L follow its params, dL/da = b*f at a=1, b=5, c=-2, f=3?"""
    got = WORKED["worked_L"](REF, {"a": 1.0, "b": 5.0, "c": -2.0, "f": 3.0})
    assert got == {"L": 9.0, "a.grad": 15.0, "b.grad": 3.0, "c.grad": 3.0, "f.grad": 3.0}


def test_selfcheck_finds_no_disagreement():
    """Does `python -m autograder.selfcheck` find the two oracles in agreement on every row?"""
    rows = run_selfcheck()
    assert rows and all(row.ok for row in rows), [row for row in rows if not row.ok]


def test_torch_leaves_are_float64_tensors_built_without_float32():
    """Is a torch adapter leaf a float64 tensor holding exactly the Python float (no float32 on the way)?"""
    x = TORCH.Value(0.1)
    assert x.t.dtype == torch.float64 and x.t.is_leaf and x.t.requires_grad and x.t.dim() == 0
    assert x.data == 0.1  # 0.1 through float32 would be 0.10000000149011612
    neuron = TORCH.Neuron(3)
    assert all(p.t.dtype == torch.float64 and p.t.is_leaf for p in neuron.parameters())
    assert (x * 3 + 1).t.dtype == torch.float64


def test_setting_data_on_a_torch_leaf_is_seen_by_later_ops():
    """After p.data -= 0.5, do new nodes use the new value, and does the grad flow to p?"""
    p = TORCH.Value(2.0)
    p.data -= 0.5
    y = p * p
    y.backward()
    assert (p.data, y.data, p.grad) == (1.5, 2.25, 3.0)
    assert isinstance(p.data, float) and isinstance(p.grad, float)


@pytest.mark.parametrize("api", [REF, TORCH], ids=lambda api: api.name)
def test_a_value_exponent_is_refused(api):
    """Does ** with a Value exponent raise TypeError, as the exercise API says?"""
    with pytest.raises(TypeError):
        api.Value(2.0) ** api.Value(3.0)


@pytest.mark.parametrize("api", [REF, TORCH], ids=lambda api: api.name)
def test_a_node_lists_its_children_and_op(api):
    """Are _prev a tuple of the child Values (in order) and _op the op's name, in both engines?"""
    a, b = api.Value(2.0), api.Value(3.0)
    assert ((a * b)._prev, (a * b)._op) == ((a, b), "*")
    assert ((a + a)._prev, (a + 1)._prev) == ((a, a), (a,))
    assert (a.tanh()._op, a.relu()._op, (a**2)._op) == ("tanh", "ReLU", "**2")
