"""Does the child fit the kit to a student's Value only where the student's intent is unambiguous?

In-process: child/adapt.py imports nothing, and reads the student's engine only by running it.
(Graded end to end: tests/corpus/test_real_shapes.py.)
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from autograder.child import adapt
from autograder.child.programs._graph import seed


def engine(children="_prev", container=tuple, hidden_backward=False, requires_grad=None, grad=0.0):
    class Value:
        def __init__(self, data, _children=()):
            self.data, self.grad = data, (grad() if callable(grad) else grad)
            self._backward = lambda: None
            setattr(self, children, container(_children))
            if hidden_backward:
                self.backward = lambda: None
            if requires_grad is not None:
                self.requires_grad = requires_grad

        def __add__(self, other):
            return Value(self.data + other.data, (self, other))

        def __mul__(self, other):
            return Value(self.data * other.data, (self, other))

        def backward(self):
            pass
    return SimpleNamespace(Value=Value)


def test_does_an_engine_of_the_exercise_api_get_nothing_adapted_and_nothing_said():
    found = adapt.adapt(api := engine())
    assert (found.notes, found.deviations) == ([], [])
    assert getattr(api, "grad_zero", None) is None


@pytest.mark.parametrize("name, container", [("prev", set), ("_children", tuple), ("came_from", list)])
def test_are_children_under_another_name_used_through_prev_with_a_note(name, container):
    api = engine(name, container)
    found = adapt.adapt(api)
    assert found.deviations == [] and len(found.notes) == 1 and f"`{name}`" in found.notes[0]
    a, b = api.Value(1.0), api.Value(2.0)
    node = api.Value(0.0)
    node._prev = (a, b)  # what the kit's nodes do: their own backward() walks `name`
    assert list(getattr(node, name)) == [a, b] and list(node._prev) == [a, b]


def test_are_children_the_kit_cannot_find_one_line_naming_what_the_api_needs():
    found = adapt.adapt(engine("parents", lambda cs: [(c, 1.0) for c in cs]))
    assert found.notes == [] and len(found.deviations) == 1 and "`_prev`" in found.deviations[0]


def test_is_a_backward_attribute_hiding_the_method_a_deviation():
    found = adapt.adapt(engine(hidden_backward=True))
    assert len(found.deviations) == 1 and "hides your backward() method" in found.deviations[0]


def test_are_leaves_that_track_no_gradient_by_default_a_deviation():
    assert "requires_grad=False" in adapt.adapt(engine(requires_grad=False)).deviations[0]
    assert adapt.adapt(engine(requires_grad=True)).deviations == []


@pytest.mark.parametrize("zero", [lambda: np.zeros(()), lambda: np.float64(0.0)])
def test_are_grads_seeded_in_the_type_the_engines_own_grads_have(zero):
    api = engine(grad=zero)
    adapt.adapt(api)
    g = seed(api, 2.5)
    assert type(g) is type(zero()) and float(g) == 2.5


def test_are_grads_of_a_float_engine_seeded_as_the_numbers_they_are():
    api = engine()
    adapt.adapt(api)
    assert seed(api, 2.5) == 2.5 and type(seed(api, 2.5)) is float


def test_does_an_engine_whose_constructor_raises_get_nothing_adapted():
    class Value:
        def __init__(self, data):
            raise RuntimeError("no")
    found = adapt.adapt(SimpleNamespace(Value=Value))
    assert (found.notes, found.deviations) == ([], [])


def test_does_an_endless_add_leave_the_adaptation_within_its_time():
    """An endless `+` is left to its own cases (where it times out alone), not to hold up the import."""
    import time

    class Value:
        def __init__(self, data):
            self.data, self.grad = data, 0.0

        def __add__(self, other):
            while True:
                pass
    started = time.monotonic()
    found = adapt.adapt(SimpleNamespace(Value=Value))
    assert time.monotonic() - started < adapt.SECONDS + 0.5
    assert (found.notes, found.deviations) == ([], [])


def test_is_a_closure_kept_in_backward_with_no_backward_method_a_deviation():
    class Value:
        def __init__(self, data, _children=()):
            self.data, self.grad, self._prev = data, 0.0, tuple(_children)
            self.backward = lambda: None

        def __add__(self, other):
            return Value(self.data + other.data, (self, other))
    found = adapt.adapt(SimpleNamespace(Value=Value))
    assert len(found.deviations) == 1 and "names the closure `_backward`" in found.deviations[0]
