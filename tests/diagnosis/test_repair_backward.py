"""Does each repair of backward() edit a student's own walk the way its mistake implies, keeping their names
and comments (`def backward(node)`, a builder `visit`, a list `order`, a set `seen`)?"""
from __future__ import annotations

import pytest

from autograder.diagnosis.repair import backward, backward_walk
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


RECURSION = '''
class Value:
    def backward(node):
        # my topological sort
        node.grad = 1.0
        def go(n):
            n._backward()
            for kid in n._prev:
                go(kid)
        go(node)
'''

STACK = '''
class Value:
    def backward(node):
        # my topological sort
        order, seen, todo = [], set(), [(node, False)]
        while todo:
            n, done = todo.pop()
            if done:
                order.append(n)
            elif True:
                seen.add(n)
                todo.append((n, True))
                todo.extend((kid, False) for kid in n._prev)
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
    (backward_walk.WalkInTopologicalOrder, RECURSION,
     ["topo, visited = [], set()\ndef go(n):\nif n not in visited:\nvisited.add(n)\nfor kid in n._prev:\ngo(kid)\n"
      "topo.append(n)\ngo(node)\nfor n in reversed(topo):\nn._backward()"]),
    (backward_walk.CheckVisited, STACK, ["elif n not in seen:"]),
    (backward.VisitNodes, edited("if n not in seen:\n                seen.add(n)",
                                 "if n.data not in seen:\n                seen.add(n.data)"),
     ["if n not in seen:", "seen.add(n)"]),
]


def _mistake(repair_class) -> str:
    return next(m for m, found in backward.REPAIRS.items() if repair_class in found)


def test_does_a_walk_once_per_path_become_a_topological_walk_that_passes(tmp_path):
    """The recursion repaired is a right backward(): run here on a graph of plain Python objects (the
    student's snippet, not a submission: this test is the kit's own code)."""
    texts, _ = repair(tmp_path, "backward", "no_topological_order", {"engine.py": RECURSION})
    scope: dict = {}
    exec(compile(texts["engine.py"], "engine.py", "exec"), scope)  # noqa: S102 - the kit's own snippet
    Value = scope["Value"]

    def node(prev=(), rule=None):
        v = Value.__new__(Value)
        v.grad, v._prev = 0.0, set(prev)
        v._backward = (lambda: rule(v)) if rule else (lambda: None)
        return v
    a = node()
    b = node([a], lambda v: setattr(a, "grad", a.grad + 2 * v.grad))      # b = 2a
    c = node([a, b], lambda v: (setattr(a, "grad", a.grad + v.grad), setattr(b, "grad", b.grad + v.grad)))
    Value.backward(c)                                                     # c = a + b = 3a
    assert a.grad == 3.0


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
