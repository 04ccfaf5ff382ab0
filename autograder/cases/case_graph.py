"""A case's graph as the kit built it, annotated with the numbers the student's code produced.

What the picture of a failing case shows (report/graph_svg.py draws it as micrograd's draw_dot
does): every node with its data and grad, the operation that made it, and, where the student's
number differs from the right one, both. The structure and the data come from the case's own
parameters and the task table (the kit's side), never from the student's objects; only the
observed numbers come from the child. Public cases only: a hidden case never shows its inputs.
"""
from __future__ import annotations

import math
from typing import Callable

from autograder.cases.common import fmt
from autograder.cases.model import Case
from autograder.cases.origin import with_origin
from autograder.cases.random_graphs import forward
from autograder.report.model import CaseGraph, GraphNode
from autograder.tasks import EVERY_OP

GRAPH_PROGRAMS = ("ops.local", "ops.graph", "ops.through_backward", "backward.graph")
MAX_NODES = 60  # a bigger graph is not a picture anyone reads


def case_graph(case: Case, obs: dict, golden: dict, close: Callable[[float, float], bool]) -> CaseGraph | None:
    """The annotated graph of `case`, or None when the case has no graph to draw (or a huge one)."""
    if case.program not in GRAPH_PROGRAMS:
        return None
    try:
        return _annotated(case, obs, golden, close)
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError):
        return None  # parameters this module can't read (a hand-made case): no picture, never a crash


def _annotated(case: Case, obs: dict, golden: dict, close) -> CaseGraph | None:
    p = case.params
    nodes = _local(p) if case.program == "ops.local" else _graph(p, case.task)
    if nodes is None or len(nodes) > MAX_NODES:
        return None
    grads = _observed_grads(case, p, nodes)
    out = nodes[-1].name
    annotated = []
    for node in nodes:
        key = grads.get(node.name)
        got = expected = None
        if isinstance(key, tuple):          # (observation name, index or None)
            got, expected = _pick(obs, *key), _pick(golden, *key)
        elif isinstance(key, float):        # a grad the kit itself set (the upstream of one op)
            got = expected = key
        data_got = _pick(obs, "out", None) if node.name == out and "out" in golden else None
        annotated.append(GraphNode(
            node.name, node.data, node.op, node.children, got, expected, data_got,
            wrong_grad=expected is not None and not _same(got, expected, close),
            wrong_data=data_got is not None and not _same(data_got, node.data, close)
            or (node.name == out and "out" in golden and data_got is None and "out" in obs),
            note=node.note))
    return with_origin(case, CaseGraph(tuple(annotated)), close)


def _same(got, expected, close) -> bool:
    return isinstance(got, float) and math.isfinite(got) and close(got, expected)


def _pick(values: dict, name: str, index):
    v = values.get(name)
    if index is not None:
        v = v[index] if isinstance(v, list) and index < len(v) else None
    return v if isinstance(v, float) else None


def _local(p: dict) -> list[GraphNode]:
    """a op b: the operands (a constant is a leaf of its own, as the forward code wraps it) and out."""
    op, a = p["op"], p["a"]
    if p.get("same"):
        leaves, args = [GraphNode("a", a)], [a, a]
    elif "b" in p:
        leaves, args = [GraphNode("a", a), GraphNode("b", p["b"])], [a, p["b"]]
    elif "const" in p:  # the number a leaf on the side it is written (3 * a: the reflected form)
        leaves, args = [GraphNode("a", a), GraphNode(fmt(p["const"]), p["const"])], [a, p["const"]]
        if p.get("const_side") == "left":
            leaves.reverse()
    else:
        leaves, args = [GraphNode("a", a)], [a]
    data = forward(op, args, p)
    return leaves + [GraphNode("out", data, _label(op, p), tuple(n.name for n in leaves))]


def _graph(p: dict, task: str) -> list[GraphNode] | None:
    names = [f"x{i}" for i in range(len(p["leaves"]))]
    data = [float(x) for x in p["leaves"]]
    nodes = [GraphNode(n, d) for n, d in zip(names, data)]
    for k, spec in enumerate(p["nodes"]):
        args = [data[i] for i in spec["args"]]
        kids = tuple(dict.fromkeys(names[i] for i in spec["args"]))
        if "coefs" in spec:
            value = math.fsum(c * x for c, x in zip(spec["coefs"], args))
            terms = " + ".join(f"{fmt(c)}*{names[i]}" for c, i in zip(spec["coefs"], spec["args"]))
            node = GraphNode(f"n{k}", value, terms.replace("+ -", "- "), kids, note="mix")
        else:
            op = p.get("op", task)
            value = forward(op, args, {**p, **spec})  # a variant's constant is the case's, p["constant"]
            node = GraphNode(f"n{k}", value, _label(op, {**p, **spec}), kids)
        names.append(node.name)
        data.append(node.data)
        nodes.append(node)
    return nodes if p["nodes"] else None


def _label(op: str, spec: dict) -> str:
    """The node's operation as the picture writes it: "**2", "* 3", "tanh"; a variant's "sigmoid", "**3.2715"."""
    o = EVERY_OP[op]
    if o.form == "power":
        return f"{o.symbol}{fmt(spec['k'])}"
    if "const" in spec and "args" in spec:  # a graph's node with a number: "* 3" (the 3 a leaf of its own)
        return f"{o.symbol} {fmt(spec['const'])}"
    if o.constant:
        return o.label.format(c=fmt(spec["constant"])) if o.label else op
    return o.symbol


def _observed_grads(case: Case, p: dict, nodes: list[GraphNode]) -> dict:
    """node name -> (observation, index) of its grad, or the float the kit set it to."""
    if case.program == "ops.local":
        found = {"a": ("a.grad", None), "out": float(p["upstream"])}
        if "b" in p:
            found["b"] = ("b.grad", None)
        return found
    leaves = len(p["leaves"])
    found = {f"x{i}": ("leaf_grads", i) for i in range(leaves)}
    if case.program == "ops.graph" or (case.program == "backward.graph" and p.get("calls", 1) == 1):
        found.update({f"n{k}": ("node_grads", k) for k in range(len(p["nodes"]))})
    if case.program == "ops.graph":
        found[nodes[-1].name] = ("node_grads", len(p["nodes"]) - 1)
    return found
