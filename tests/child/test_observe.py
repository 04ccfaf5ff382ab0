"""Does the child read numpy's numbers (np.float64, np.float32, np.int64, 0-d arrays) as numbers?

observe.to_json runs in the child, where numpy is in sys.modules only once a student's
code imported it; here the test process has it.
"""
from __future__ import annotations

import numpy as np
import pytest

from autograder.child import observe


@pytest.mark.parametrize("value, expected", [
    (np.float64(0.25), 0.25),
    (np.float32(0.5), 0.5),
    (np.int64(3), 3.0),
    (np.array(1.5), 1.5),
    (np.array(2, dtype=np.int32), 2.0),
    ([np.float32(1.0), (np.float64(-2.0),)], [1.0, [-2.0]]),
])
def test_numpy_numbers_are_numbers(value, expected):
    got = observe.to_json(value)
    assert got == expected and type(got) is type(expected)
    assert all(type(x) is float for x in (got if isinstance(got, list) else [got]) if not isinstance(x, list))


@pytest.mark.parametrize("value, kind", [
    (np.bool_(True), "bool"),
    (np.array([1.0, 2.0]), "ndarray"),
    (np.complex128(1j), "complex128"),
    (np.float64("nan"), None),
])
def test_what_is_not_one_real_number_is_described_or_passed_on_as_nan(value, kind):
    got = observe.to_json(value)
    if kind is None:
        assert got != got  # a nan is sent as such: the parent refuses it
    else:
        assert got["type"] == kind


def test_a_students_class_named_like_numpys_is_not_taken_for_it():
    fake = type("float32", (), {"__module__": "numpy", "item": lambda self: 1.0})()
    assert observe.to_json(fake)["type"] == "float32"
