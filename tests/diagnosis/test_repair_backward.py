"""Does each repair of backward() edit a student's own walk the way its mistake implies, keeping their names
and comments (`def backward(node)`, a builder `visit`, a list `order`, a set `seen`)?"""
from __future__ import annotations

import pytest

from autograder.diagnosis.repair import backward
from repairing import lines, repair

RIGHT = '''
class Value:
    def backward(node):
        # my topological sort
        order, seen = [], set()
        def visit(n):
            if n not in seen:
                seen.add(n)
                for kid in n._prev:
                    visit(kid)
                order.append(n)  # after its children
        visit(node)
        node.grad = 1.0
        for n in reversed(order):
            n._backward()
'''


def edited(old: str, new: str) -> str:
    assert RIGHT.count(old) == 1, old
    return RIGHT.replace(old, new)


CASES = [
    (backward.WalkReversed, edited("for n in reversed(order):", "for n in order:"), ["for n in reversed(order):"]),
    (backward.ListNodeAfterChildren,
     edited("                for kid in n._prev:\n                    visit(kid)\n                order.append(n)  # after its children\n",
            "                order.append(n)  # after its children\n                for kid in n._prev:\n                    visit(kid)\n"),
     ["visit(kid)\norder.append(n)  # after its children"]),
    (backward.SeedOutput, edited("        node.grad = 1.0\n", ""), ["node.grad = 1"]),
    (backward.SeedWithAssign, edited("node.grad = 1.0", "node.grad += 1.0"), ["node.grad = 1"]),
    (backward.AddVisitedSet,
     RIGHT.replace("order, seen = [], set()", "order = []").replace(
         "            if n not in seen:\n                seen.add(n)\n                for kid in n._prev:\n"
         "                    visit(kid)\n                order.append(n)  # after its children\n",
         "            for kid in n._prev:\n                visit(kid)\n            order.append(n)  # after its children\n"),
     ["visited = set()", "if n not in visited:", "visited.add(n)"]),
    (backward.AppendInsideVisited,
     edited("                order.append(n)  # after its children\n", "            order.append(n)  # after its children\n"),
     ["visit(kid)\norder.append(n)  # after its children\nvisit(node)"]),
    (backward.CallEveryClosure, edited("        for n in reversed(order):\n            n._backward()\n",
                                       "        node._backward()\n"), ["for n in reversed(order):", "n._backward()"]),
    (backward.KeepGrads, edited("        node.grad = 1.0\n", "        for n in order:\n            n.grad = 0\n"
                                "        node.grad = 1.0\n"), ["node.grad = 1.0\nfor n in reversed(order):"]),
    (backward.CallClosures, edited("n._backward()", "n._backward"), ["n._backward()"]),
    (backward.VisitNodes, edited("if n not in seen:\n                seen.add(n)",
                                 "if n.data not in seen:\n                seen.add(n.data)"),
     ["if n not in seen:", "seen.add(n)"]),
]


def _mistake(repair_class) -> str:
    return next(m for m, found in backward.REPAIRS.items() if repair_class in found)


@pytest.mark.parametrize("repair_class, source, written", CASES, ids=lambda x: getattr(x, "__name__", ""))
def test_does_the_repair_mend_the_walk_in_the_students_own_names_and_keep_their_comments(
        tmp_path, repair_class, source, written):
    texts, edits = repair(tmp_path, "backward", _mistake(repair_class), {"engine.py": source})
    assert edits, "the repair found no spot"
    after = "\n".join(lines(texts["engine.py"]))
    assert all(line in after for line in written), texts["engine.py"]
    assert "# my topological sort" in after and ("# after its children" in after) == ("# after its children" in source)


def test_is_every_repair_of_backward_tested_here():
    assert {r for found in backward.REPAIRS.values() for r in found} <= {c[0] for c in CASES}


def test_does_a_repaired_walk_read_as_the_right_one(tmp_path):
    """Pre-order walked from the output (two mistakes of one kind): the append moved and the walk reversed."""
    source = edited("                for kid in n._prev:\n                    visit(kid)\n                order.append(n)  # after its children\n",
                    "                order.append(n)  # after its children\n                for kid in n._prev:\n                    visit(kid)\n")
    texts, _ = repair(tmp_path, "backward", "topo_wrong_order", {"engine.py": source.replace("reversed(order)", "order")})
    assert lines(texts["engine.py"]) == lines(RIGHT.lstrip("\n"))
