"""Is the torch adapter a true second oracle: float64 from the start, torch's own gradients, the
reference's node structure and its very nn classes?"""
from __future__ import annotations

import math
import random

import pytest

import reference
from autograder.engines import torch_adapter
from autograder.engines.torch_adapter import MLP, Value, mse_loss, native_mix


def test_is_a_leaf_built_from_the_python_float_in_float64():
    """0.1 through float32 would be 0.10000000149011612."""
    assert Value(0.1).data == 0.1 and Value(0.1).t.dtype.is_floating_point and str(Value(0.1).t.dtype) == "torch.float64"


def test_does_torch_give_the_gradients_of_a_shared_subexpression():
    x = Value(1.5)
    y = x * (x + 1)  # dy/dx = 2x + 1
    y.backward()
    assert x.grad == pytest.approx(4.0)


def test_do_both_oracles_build_the_same_nodes():
    for api in (reference, torch_adapter):
        a = api.Value(2.0)
        assert [(a * 3)._op, a.relu()._op, a.tanh()._op, (a ** 2)._op] == ["*", "ReLU", "tanh", "**2"]


def test_is_a_hand_set_backward_refused_rather_than_ignored():
    node = native_mix([Value(1.0)], [2.0])
    node._backward = lambda: None
    with pytest.raises(RuntimeError, match="hand-set _backward"):
        node.backward()


def test_can_only_a_leaf_have_its_data_set():
    with pytest.raises(AttributeError, match="leaf only"):
        (Value(1.0) + 1).data = 3.0


def test_are_the_nn_classes_the_references_own_on_torch_values():
    assert issubclass(torch_adapter.Neuron, reference.Neuron) and torch_adapter.Module is reference.Module
    random.seed(7)
    ours = MLP(3, [4, 1])
    random.seed(7)
    theirs = reference.MLP(3, [4, 1])
    assert [p.data for p in ours.parameters()] == [p.data for p in theirs.parameters()]
    assert all(isinstance(p, Value) for p in ours.parameters())
    x = [0.5, -1.0, 2.0]
    assert ours(x).data == pytest.approx(theirs(x).data, rel=1e-12)


def test_does_mse_loss_build_on_the_predictions_engine():
    preds = [Value(1.0), Value(2.5)]
    loss = mse_loss(preds, [0.0, 3.0])
    assert isinstance(loss, Value) and math.isclose(loss.data, (1 + 0.25) / 2)
    loss.backward()
    assert [p.grad for p in preds] == pytest.approx([1.0, -0.5])
