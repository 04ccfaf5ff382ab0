"""Where a wrong gradient starts: the first node, walking back from the output, whose own step is wrong.

Backpropagation is a walk from the output down: each node hands its children its grad times its
local derivative (its step). In a failing case with a graph the kit knows every node's local
derivative (from the case's own parameters and the kit's forward values, never from student
objects) and the grad the student's code left on every node. So a node's grad can be checked
against what its parents' observed grads, times their right local derivatives, give it: where
they differ, one of its parents' steps went wrong. A parent is the culprit for sure when it is the
only one that could be (a single parent, or the kit's own mix nodes beside it, whose steps the kit
runs itself in an op's graph); the first wrong step is that culprit when every other step that could
be wrong lies below it. The nodes below it that are wrong, and whose numbers no other suspect step
touched, are wrong only because of it.

What is read, and what is taken as given: a node's step writes only into its children's grads (as
micrograd's closures do: `self.grad += ...`, `other.grad += ...`), and the kit's own mix nodes' steps,
which the kit itself runs in an op's graph, are right.

When the evidence does not single out one node (a grad not observed, a wrong forward value, two
wrong steps side by side), there is no origin: the picture and the text say less, never a wrong node.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

from autograder.cases.common import fmt
from autograder.cases.model import Case
from autograder.report.model import CaseGraph, GraphNode
from autograder.tasks import EVERY_OP

Close = Callable[[float, float], bool]


def with_origin(case: Case, graph: CaseGraph, close: Close) -> CaseGraph:
    """graph with its origin, the nodes wrong only because of it and the sentence saying so, when the
    evidence singles one node out; graph as it is otherwise."""
    try:
        found = _find(case, graph, close)
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError):
        return graph  # parameters this module can't read: no origin, never a crash
    if found is None:
        return graph
    origin, after, sentence = found
    return replace(graph, origin=origin, after=after, step=sentence)


def _find(case: Case, graph: CaseGraph, close: Close):
    setup = _setup(case)
    if setup is None or any(n.wrong_data for n in graph.nodes):
        return None  # a wrong forward value: the steps ran on other numbers than the kit's
    seed, preset, trusted = setup
    nodes = {n.name: n for n in graph.nodes}
    order = [n.name for n in graph.nodes]  # creation order: a topological order
    steps = _steps(case, graph)
    parents = {name: [p for p in order if name in steps.get(p, {})] for name in order}
    if any(not _number(nodes[p].grad) for p in steps):
        return None  # a node whose grad is not observed (or not a number) hands on what we can't know
    should = {}  # node -> the grad its parents' observed grads give it (the output: the seed)
    for name in order:
        if parents[name]:
            should[name] = preset.get(name, 0.0) + math.fsum(steps[p][name] * nodes[p].grad for p in parents[name])
        elif name == order[-1] and seed is not None:
            should[name] = seed
    off = [n for n in should if nodes[n].grad is not None and not (_number(nodes[n].grad)
                                                                   and close(nodes[n].grad, should[n]))]
    if not off:
        return None
    index = {name: i for i, name in enumerate(order)}
    if case.program == "backward.graph":
        found = _whole_steps(order, steps, parents, nodes, should, close, index)
    else:
        found = _single_edges(off, parents, trusted, steps, index)
    if found is None:
        return None
    origin, others = found
    below = _below(origin, steps)
    tainted = set().union(*(_below(q, steps) for q in others)) if others else set()
    after = tuple(n for n in order if nodes[n].wrong and n != origin and n in below and n not in tainted)
    follow = not others and any(n not in steps.get(origin, {}) for n in after)
    return origin, after, _sentence(nodes[origin], nodes, should, off, parents, follow)


def _single_edges(off, parents, trusted, steps, index):
    """An op's graph: a step of the student's closure may hand each child anything, so a node whose grad
    is off points at its parents, less the kit's own mix nodes. (origin, the other steps that may be
    wrong), or None when no step is sure, or when one that may be wrong is not below the sure one."""
    suspects = {c: [p for p in parents[c] if p not in trusted] for c in off}
    if any(not s for s in suspects.values()):
        return None  # off, and no step could have put it off: not a wrong step (the kit set it, or a leaf)
    forced = [s[0] for s in suspects.values() if len(s) == 1]
    if not forced:
        return None
    origin = max(forced, key=index.get)
    below = _below(origin, steps)
    if any(q != origin and q not in below for s in suspects.values() for q in s):
        return None  # another step that could be the first wrong one is not below it
    return origin, {q for s in suspects.values() for q in s if q != origin}


def _whole_steps(order, steps, parents, nodes, should, close, index):
    """backward()'s walk on the kit's own nodes: every step is the kit's closure, right in itself, so a
    wrong one (run twice, never, or before its grad was complete) hands every child its coefficient times
    the same wrong number. Each step's number is read off a child whose other parents' numbers are
    known, starting from the output's children. (origin, the other wrong or unknown steps), or None
    when the numbers don't add up or a step that may be wrong is not below the first wrong one."""
    root = order[-1]
    handed: dict[str, float] = {}  # step -> the grad it handed on, where the numbers tell

    def residual(c: str, p: str) -> float:  # what is off at c, less what c's other (known) parents put off
        return nodes[c].grad - should[c] - math.fsum(steps[q][c] * (handed[q] - nodes[q].grad)
                                                     for q in parents[c] if q != p)

    todo = sorted(steps, key=index.get, reverse=True)
    while True:  # read each step's number off a child whose other parents are known, until none is left
        learnt = {}
        for p in todo:
            estimates = [nodes[p].grad + residual(c, p) / coef for c, coef in steps[p].items()
                         if coef and all(q in handed for q in parents[c] if q != p)]
            if estimates:
                if any(not close(e, estimates[0]) for e in estimates):
                    return None  # not one number: something other than the walk is off
                learnt[p] = estimates[0]
        if not learnt:
            break
        handed.update(learnt)
        todo = [p for p in todo if p not in learnt]
    if any(not close(nodes[c].grad, nodes[c].grad - residual(c, None))
           for c in should if parents[c] and all(q in handed for q in parents[c])):
        return None  # the numbers don't add up as the walk's
    wrong = [p for p in order if p in steps and (p not in handed or not close(handed[p], nodes[p].grad))]
    if root in should and not close(nodes[root].grad, should[root]):
        wrong.append(root)  # the seed
    if not wrong:
        return None
    origin = max(wrong, key=index.get)
    if origin != root and origin not in handed:
        return None
    below = _below(origin, steps)
    if any(q != origin and q not in below for q in wrong):
        return None
    return origin, {q for q in wrong if q != origin}


def _setup(case: Case):
    """(the grad the output must end with, or None when the kit set it; the grads nodes held before;
    the nodes whose steps the kit ran itself), or None for a program whose steps can't be checked."""
    p = case.params
    if case.program == "ops.local":
        return None, dict(zip(("a", "b"), p.get("preset", ()))), set()
    if case.program == "ops.graph":
        mixes = {f"n{k}" for k, spec in enumerate(p["nodes"]) if "coefs" in spec}
        return float(p["upstream"]), {}, mixes
    if case.program == "backward.graph" and p.get("calls", 1) == 1:
        return 1.0, {f"x{i}": g for i, g in enumerate(p.get("preset", ()))}, set()
    return None  # only the leaves' grads are observed: the steps between can't be checked


def _steps(case: Case, graph: CaseGraph) -> dict[str, dict[str, float]]:
    """node -> {child: d node / d child} for every node made from others, from the case's parameters."""
    p = case.params
    data = {n.name: n.data for n in graph.nodes}
    if case.program == "ops.local":
        a = p["a"]
        if p.get("same"):
            return {"out": {"a": math.fsum(_derivative(p["op"], [a, a], p))}}
        if "b" in p:
            return {"out": dict(zip("ab", _derivative(p["op"], [a, p["b"]], p)))}
        return {"out": {"a": _derivative(p["op"], [a], p)[0]}}
    names = [f"x{i}" for i in range(len(p["leaves"]))] + [f"n{k}" for k in range(len(p["nodes"]))]
    steps = {}
    for k, spec in enumerate(p["nodes"]):
        args = [names[i] for i in spec["args"]]
        if "coefs" in spec:
            pairs = zip(args, spec["coefs"])
        else:
            pairs = zip(args, _derivative(p.get("op", case.task), [data[a] for a in args], {**p, **spec}))
        local: dict[str, float] = {}
        for child, d in pairs:
            local[child] = local.get(child, 0.0) + d
        steps[f"n{k}"] = local
    return steps


def _derivative(op: str, args: list[float], spec: dict) -> tuple[float, ...]:
    """d node / d each Value operand (a number operand, spec["const"], has none)."""
    o = EVERY_OP[op]
    return o.derivative(*o.arguments(args, spec))[:1 if "const" in spec else 2]


def _below(name: str, steps: dict[str, dict[str, float]]) -> set[str]:
    """The nodes under `name`: those its step hands a grad to, and theirs, down to the leaves."""
    seen, todo = set(), list(steps.get(name, {}))
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(steps.get(n, {}))
    return seen


def _sentence(origin: GraphNode, nodes: dict[str, GraphNode], should: dict, off: list, parents: dict,
              follow: bool) -> str:
    if origin.name in off and not parents[origin.name]:  # the output's own grad: the seed
        text = (f"the first wrong step is the first one, at the output: {origin.name}.grad should be "
                f"{fmt(should[origin.name])} (the seed, d {origin.name} / d {origin.name}) and is {_show(origin.grad)}")
    else:
        child = next((c for c in nodes if c in off and origin.name in parents[c]), None)
        if child is None:  # its children's grads add up, with what lower steps got wrong as well
            return f"the first wrong step is at {expression(origin)}"
        shared = " (with what the other nodes hand it)" if len(parents[child]) > 1 else ""
        text = (f"the first wrong step is at {expression(origin)}: with {origin.name}.grad = {_show(origin.grad)}, "
                f"{child}.grad should be {fmt(should[child])}{shared} and is {_show(nodes[child].grad)}")
    return text + ("; the wrong grads further down follow from it" if follow else "")


def expression(node: GraphNode) -> str:
    """'n2 = x0 * x1', 'out = tanh(a)', 'n1 = 2*x0 - x1': how a sentence names a node made from others."""
    kids = node.children
    if node.note == "mix":
        return f"{node.name} = {node.op}"
    if node.op.startswith("**"):
        return f"{node.name} = {kids[0]}{node.op}"
    if node.op[:1].isalpha():
        return f"{node.name} = {node.op}({kids[0]})"
    if " " in node.op:  # "* 3": the number is the second operand
        return f"{node.name} = {kids[0]} {node.op}"
    return f"{node.name} = {kids[0]} {node.op} {kids[-1]}"


def _number(x) -> bool:
    return isinstance(x, float) and math.isfinite(x)


def _show(x) -> str:
    return fmt(x) if isinstance(x, float) else "nothing"
