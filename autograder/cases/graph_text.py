"""A case's graph written out the way a student can read it: x0, x1 for the leaves,
n0, n1, ... for the nodes in creation order, each with the expression that made it.

Failure messages name x2.grad and n3.grad, and the case's derivation lists the
graph, so a student can find the node a message speaks of (public cases only:
hidden cases never show their inputs).
"""
from __future__ import annotations

from autograder.cases.common import SYMBOL, fmt
from autograder.tasks import OPS

MAX_NODES = 40


def describe(g: dict, op: str | None = None) -> str:
    """'x0 = 1.5, x1 = -2; n0 = 2*x0 + 1.5*x1; n1 = relu(n0); n2 = ...' for a graph dict."""
    n_leaves = len(g["leaves"])

    def name(i: int) -> str:
        return f"x{i}" if i < n_leaves else f"n{i - n_leaves}"

    parts = [", ".join(f"x{i} = {fmt(v)}" for i, v in enumerate(g["leaves"]))]
    for k, spec in enumerate(g["nodes"][:MAX_NODES]):
        args = [name(i) for i in spec["args"]]
        if "coefs" in spec:
            terms = [f"{fmt(c)}*{a}" for c, a in zip(spec["coefs"], args)]
            expr = " + ".join(terms).replace("+ -", "- ")
        else:
            expr = _op_expr(spec, op, args)
        parts.append(f"n{k} = {expr}")
    if len(g["nodes"]) > MAX_NODES:
        parts.append(f"... ({len(g['nodes']) - MAX_NODES} more nodes)")
    return "the graph: " + "; ".join(parts) + " (the last node is the output)"


def _op_expr(spec: dict, op: str, args: list[str]) -> str:
    form = OPS[op].form
    if form == "binary":
        sym = SYMBOL[op]
        if "const" in spec:
            c = fmt(spec["const"])
            return f"{c} {sym} {args[0]}" if spec.get("const_side") == "left" else f"{args[0]} {sym} {c}"
        return f"{args[0]} {sym} {args[-1]}"
    if form == "power":
        return f"{args[0]}{SYMBOL[op]}{fmt(spec['k'])}"
    return f"{op}({args[0]})"


def entry_name(name: str, i: int) -> str:
    """How a message names entry i of an observed list: x2.grad, n3.grad, else name[i]."""
    return {"leaf_grads": f"x{i}.grad", "node_grads": f"n{i}.grad"}.get(name, f"{name}[{i}]")
