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


def gated(keyword=None, attribute=None):
    """An engine whose + passes a grad only to an operand asked to track one: by a constructor keyword
    defaulting to False, or by an attribute a student sets True by hand."""
    class Value:
        def __init__(self, data, _children=(), **kw):
            self.data, self.grad, self._prev, self._backward = data, 0.0, tuple(_children), lambda: None
            asked = kw.get(keyword, False) if keyword else False
            self.flag = asked or any(c.flag for c in _children)

        def __add__(self, other):
            out = Value(self.data + other.data, (self, other))

            def _backward():
                for x in (self, other):
                    if x.flag:
                        x.grad += out.grad
            out._backward = _backward
            return out
    if keyword:  # the keyword in the signature, as students write it
        init = Value.__init__
        exec(f"def __init__(self, data, _children=(), {keyword}=False):\n    init(self, data, _children, "
             f"**{{{keyword!r}: {keyword}}})", {"init": init}, ns := {})
        Value.__init__ = ns["__init__"]
    return SimpleNamespace(Value=Value)


@pytest.mark.parametrize("keyword", ["requires_grad", "require_grad", "track", "needs_grad"])
def test_are_leaves_gated_by_any_keyword_made_to_track_with_a_note(keyword):
    api = gated(keyword=keyword)
    found = adapt.adapt(api)
    assert found.deviations == [] and len(found.notes) == 1 and f"`{keyword}=False` by default" in found.notes[0]
    a, b = api.Value(2.0), api.Value(3.0)
    out = a + b
    out.grad = 1.0
    out._backward()
    assert (a.grad, b.grad) == (1.0, 1.0)


def test_are_leaves_gated_by_an_attribute_set_by_hand_made_to_track_with_a_note():
    api = gated()
    found = adapt.adapt(api)
    assert found.deviations == [] and "`self.flag = False` in __init__" in found.notes[0]
    assert api.Value(2.0).flag is True


def test_are_leaves_gated_by_a_class_attribute_made_to_track_with_a_note():
    api = gated()
    api.Value.flag = False  # `flag = False` in the class body, set True on a leaf by hand
    init = api.Value.__init__

    def __init__(self, data, _children=()):
        init(self, data, _children)
        if not _children:
            del self.flag  # a leaf reads the class's
    api.Value.__init__ = __init__
    found = adapt.adapt(api)
    assert found.deviations == [] and "`flag = False` in class Value" in found.notes[0]
    assert api.Value(2.0).flag is True


def test_is_a_false_attribute_that_gates_nothing_left_alone():
    """requires_grad=False spelled out, closures that change no grad whatever it is: the cases say what fails."""
    found = adapt.adapt(api := engine(requires_grad=False))
    assert (found.notes, found.deviations) == ([], [])
    assert api.Value(2.0).requires_grad is False


def with_ops(**methods):
    class Value:
        def __init__(self, data, _children=()):
            self.data, self.grad, self._prev, self._backward = data, 0.0, tuple(_children), lambda: None

        def __mul__(self, other):
            return Value(self.data * other.data, (self, other))
    for name, method in methods.items():
        setattr(Value, name, method)
    return SimpleNamespace(Value=Value)


def test_is_an_op_returning_none_or_a_number_its_own_note_and_not_a_missing_children_one():
    found = adapt.adapt(with_ops(__add__=lambda self, other: None, exp=lambda self: 2.718,
                                 relu=lambda self: (self, 0.0)))
    assert found.deviations == []
    assert [n.split(" returns ")[0] for n in found.notes] == [f"your Value's {m}" for m in ("__add__", "exp", "relu")]
    assert "returns None" in found.notes[0] and "a plain float" in found.notes[1] and "a tuple" in found.notes[2]


def property_children(kind):
    class Ctx:
        def __init__(self, inputs):
            self.inputs = tuple(inputs)

    class Value:
        def __init__(self, data, _children=()):
            self.data, self.grad, self._backward = data, 0.0, lambda: None
            self._store = {"in": tuple(_children)} if kind == "property" else Ctx(_children)

        @property
        def parents(self):
            return self._store["in"] if kind == "property" else ()

        def __add__(self, other):
            return Value(self.data + other.data, (self, other))
    return SimpleNamespace(Value=Value)


@pytest.mark.parametrize("kind, where", [("property", "`parents`"), ("held", "`_store.inputs`")])
def test_are_children_behind_a_property_or_in_a_held_object_read_there(kind, where):
    api = property_children(kind)
    found = adapt.adapt(api)
    assert found.deviations == [] and where in found.notes[0]
    a, b = api.Value(1.0), api.Value(2.0)
    assert list((a + b)._prev) == [a, b] and list(a._prev) == []


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
