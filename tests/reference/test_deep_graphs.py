"""Does the reference engine handle graphs far deeper than Python's recursion limit?"""
from __future__ import annotations

import sys

from reference import Value

DEPTH = 100_000


def test_a_chain_of_100000_operations_backpropagates():
    """Does backward() on a 100,000-step chain work (no RecursionError) and give the right gradient?"""
    assert DEPTH > sys.getrecursionlimit()
    x = Value(0.5)
    y = x
    for _ in range(DEPTH):
        y = y + x  # y = (k + 1) * x after k steps
    y.backward()
    assert y.data == (DEPTH + 1) * 0.5
    assert x.grad == DEPTH + 1


def test_a_deep_chain_of_mixed_ops_has_the_product_of_local_derivatives():
    """Through 50,000 steps of `* 1.00001` then `- 0.0`, is dy/dx the product of the local derivatives?"""
    x = Value(1.0)
    y = x
    for _ in range(DEPTH // 2):
        y = (y * 1.00001) - 0.0  # two nodes a step: a const mul and a const add
    y.backward()
    assert abs(x.grad - 1.00001 ** (DEPTH // 2)) < 1e-9 * x.grad


def test_children_are_a_tuple_in_operand_order():
    """Is _prev a tuple in operand order, so traversal order never depends on memory addresses?"""
    a, b = Value(2.0), Value(3.0)
    assert type((a * b)._prev) is tuple
    assert (a * b)._prev == (a, b)
    assert (b * a)._prev == (b, a)
    assert (a + a)._prev == (a, a)
