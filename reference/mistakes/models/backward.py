"""The mistakes of backward(): wrong walks of the graph, a missing or wrong seed (task backward)."""
from __future__ import annotations

from reference.mistakes.engine import Value, topological
from reference.mistakes.models.base import Model, build_api, subclass


def _preorder(root):
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            topo.append(v)
            for child in v._prev:
                build(child)
    build(root)
    return topo


def _no_visited(root):
    topo = []

    def build(v):
        for child in v._prev:
            build(child)
        topo.append(v)
    build(root)
    return topo


def _append_outside(root):
    """`topo.append(v)` outside the `if v not in visited` check: a node is listed each time it is reached
    (its children only the first time)."""
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build(child)
        topo.append(v)
    build(root)
    return topo


def _by_value(root):
    topo, visited = [], set()

    def build(v):
        if v.data not in visited:
            visited.add(v.data)
            for child in v._prev:
                build(child)
            topo.append(v)
    build(root)
    return topo


def _run(order, seed=True, accumulate=False, reset=False):
    def walk(root):
        topo = order(root)
        if reset:
            for v in topo:
                v.grad = 0.0
        if accumulate:
            root.grad += 1.0
        elif seed:
            root.grad = 1.0
        for v in topo:
            v._backward()
    return walk


def _only_root(root):
    root.grad = 1.0
    root._backward()


def _no_calls(root):
    """`v._backward` without the parentheses: the closures are looked up, never called."""
    root.grad = 1.0


def _recursion(root):
    root.grad = 1.0

    def go(v):
        v._backward()
        for child in v._prev:
            go(child)
    go(root)


def backward_models() -> list[Model]:
    def model(id_, walk, variant="", also=()):
        return Model("backward", id_, variant, lambda: build_api(subclass(Value, walk=staticmethod(walk))), also)
    reversed_topo = lambda order: (lambda root: list(reversed(order(root))))  # noqa: E731
    return [
        model("topo_not_reversed", _run(topological)),
        model("topo_wrong_order", _run(reversed_topo(_preorder)), "preorder"),
        model("topo_wrong_order", _run(_preorder), "preorder_forward"),
        model("grad_not_seeded", _run(reversed_topo(topological), seed=False)),
        model("grad_not_seeded", _run(topological, seed=False), also=("topo_not_reversed",)),
        model("nodes_visited_twice", _run(reversed_topo(_no_visited))),
        model("append_outside_visited", _run(reversed_topo(_append_outside))),
        model("seed_accumulates", _run(reversed_topo(topological), accumulate=True)),
        model("backward_resets_grads", _run(reversed_topo(topological), reset=True)),
        model("backward_only_root", _only_root),
        model("closures_not_called", _no_calls),
        model("no_topological_order", _recursion),
        model("visited_by_value", _run(reversed_topo(_by_value))),
    ]
