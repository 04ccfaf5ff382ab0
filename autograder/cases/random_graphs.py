"""Random graphs for the cases: of one operation and kit mix nodes, or of mix nodes only.

A graph is {"leaves": [numbers], "nodes": [specs]}, a spec's "args" indexing the
leaves first, then the nodes before it (see programs/_graph.build). Forward
values are tracked in floats while generating, so that every operation gets an
input in its safe domain: pow with a fractional or negative exponent only on
[0.3, 3], exp on |v| <= 3, relu away from 0, magnitudes below 50.
"""
from __future__ import annotations

import random

from autograder.cases.common import away, r3
from autograder.tasks import EVERY_OP, OPS

POW_EXPONENTS = (2, 3, -1, -2, 0.5, 1.5, -0.5)
LIMIT = 50.0
MAX_PATHS = 5000


def fits(op: str, v: float, k=None) -> bool:
    """Is v a safe input of op (with exponent k for pow)?"""
    return OPS[op].fits(v, k)


def forward(op: str, args: list[float], spec: dict) -> float:
    """The value of an op node whose arguments are worth args."""
    o = EVERY_OP[op]
    return o.forward(*o.arguments(args, spec))


def _pick(rng: random.Random, n: int) -> int:
    """An index below n, often one of the last few (deeper graphs), else any (fan-out)."""
    return rng.randrange(max(0, n - 3), n) if rng.random() < 0.5 else rng.randrange(n)


def _mix(rng: random.Random, vals: list[float], k_max: int = 3) -> tuple[dict, float]:
    """A mix node on 1 to k_max distinct earlier values, and its value."""
    while True:
        args = sorted({_pick(rng, len(vals)) for _ in range(rng.randint(1, k_max))})
        coefs = [away(rng, 0.3, 1.5) for _ in args]
        v = sum(c * vals[i] for c, i in zip(coefs, args))
        if abs(v) < LIMIT:
            return {"args": args, "coefs": coefs}, v


def _op_spec(rng: random.Random, op: str, a: int, n: int) -> dict:
    """A node of op with first argument a (of n values so far), its other choices at random."""
    spec: dict = {"args": [a]}
    form = OPS[op].form
    if form == "binary":
        roll = rng.random()
        if roll < 0.15:
            spec.update(const=away(rng, 0.5, 3), const_side=rng.choice(("left", "right")))
        else:
            spec["args"].append(a if roll < 0.35 else _pick(rng, n))  # sometimes x op x
    elif form == "power":
        spec["k"] = rng.choice(POW_EXPONENTS)
    return spec


def _op(rng: random.Random, op: str, vals: list[float]) -> tuple[dict, float] | None:
    """A node of op on earlier values, or None when none of those tried is in the domain."""
    for _ in range(12):
        spec = _op_spec(rng, op, _pick(rng, len(vals)), len(vals))
        if fits(op, vals[spec["args"][0]], spec.get("k")):
            v = forward(op, [vals[i] for i in spec["args"]], spec)
            if abs(v) < LIMIT:
                return spec, v
    return None


def _rescaled_op(rng: random.Random, op: str, vals: list[float]) -> list[tuple[dict, float]]:
    """Two nodes: a mix c * v worth a number in [0.5, 2.5] (safe for every op), then op on it."""
    i = rng.choice([j for j, v in enumerate(vals) if abs(v) >= 0.2])  # the leaves always are
    c = r3(rng.uniform(0.5, 2.5) / vals[i])
    vals = [*vals, c * vals[i]]
    while True:
        spec = _op_spec(rng, op, len(vals) - 1, len(vals))
        args = [vals[j] for j in spec["args"]]
        if fits(op, args[0], spec.get("k")) and abs(forward(op, args, spec)) < LIMIT:
            return [({"args": [i], "coefs": [c]}, vals[-1]), (spec, forward(op, args, spec))]


def _close(rng: random.Random, nodes: list[dict], vals: list[float]) -> None:
    """End with a root that every value reaches: a mix of those nobody used, if needed."""
    used = {i for spec in nodes for i in spec["args"]}
    unused = [i for i in range(len(vals)) if i not in used]
    if unused != [len(vals) - 1]:
        spec = {"args": unused, "coefs": [away(rng, 0.3, 1.5) for _ in unused]}
        nodes.append(spec)
        vals.append(sum(c * vals[i] for c, i in zip(spec["coefs"], unused)))


def op_graph(rng: random.Random, op: str, *, n_leaves: int, n_nodes: int, min_ops: int = 3) -> dict:
    """A graph of about n_nodes nodes, at least min_ops of them op, the others mix nodes."""
    leaves = [away(rng, 0.2, 2.0) for _ in range(n_leaves)]
    vals, nodes, n_ops = list(leaves), [], 0
    while len(nodes) < n_nodes or n_ops < min_ops:
        want_op = rng.random() < 0.6 or len(nodes) >= n_nodes
        made = _op(rng, op, vals) if want_op else None
        if made is not None:
            new, n_ops = [made], n_ops + 1
        elif want_op:
            new, n_ops = _rescaled_op(rng, op, vals), n_ops + 1  # nothing was in the domain
        else:
            new = [_mix(rng, vals)]
        for spec, v in new:
            nodes.append(spec)
            vals.append(v)
    _close(rng, nodes, vals)
    return {"leaves": leaves, "nodes": nodes}


def mix_dag(rng: random.Random, *, n_leaves: int, n_nodes: int, k_max: int = 3) -> dict:
    """A random graph of mix nodes only (fan-out, shared interior nodes), rooted in its last node.

    Its paths are kept few (MAX_PATHS), so that a backward() without a visited
    set, which walks every path, gives wrong numbers rather than a timeout.
    """
    while True:
        leaves = [away(rng, 0.2, 2.0) for _ in range(n_leaves)]
        vals, nodes = list(leaves), []
        for _ in range(n_nodes):
            spec, v = _mix(rng, vals, k_max)
            nodes.append(spec)
            vals.append(v)
        _close(rng, nodes, vals)
        g = {"leaves": leaves, "nodes": nodes}
        if paths(g) <= MAX_PATHS:
            return g


def paths(g: dict) -> int:
    """How many times a walk from the root that never remembers a visit reaches a node."""
    n_leaves, nodes = len(g["leaves"]), g["nodes"]
    count = [0] * (n_leaves + len(nodes))
    count[-1] = 1
    for j in range(len(count) - 1, n_leaves - 1, -1):
        for i in nodes[j - n_leaves]["args"]:
            count[i] += count[j]
    return sum(count)


def mix_chain(rng: random.Random, *, depth: int, n_leaves: int = 2) -> dict:
    """A chain of depth mix nodes, each on the one before (and sometimes on a leaf as well)."""
    leaves = [away(rng, 0.2, 2.0) for _ in range(n_leaves)]
    nodes, prev = [], 0
    for _ in range(depth):
        args = [prev] + ([rng.randrange(n_leaves)] if rng.random() < 0.4 else [])
        args = sorted(set(args))
        nodes.append({"args": args, "coefs": [away(rng, 0.5, 1.5) for _ in args]})
        prev = n_leaves + len(nodes) - 1
    return {"leaves": leaves, "nodes": nodes}


def with_op_at_kink(rng: random.Random, g: dict, op: str) -> dict:
    """g with one more op node whose input is exactly at its kink, joined to the root by a kit node.

    The kink must be 0 (relu's): the zero is x_i * x_j - x_j * x_i over two leaves (exact in
    floats); relu's derivative there is 0, so a closure that passes the gradient at 0 (>= 0
    for > 0) sends a share to both leaves that a correct one does not.
    """
    if OPS[op].kinks != (0.0,):
        raise ValueError(f"{op}: only a kink at 0 can be built exactly, not {OPS[op].kinks}")
    n_leaves, nodes = len(g["leaves"]), [dict(s) for s in g["nodes"]]
    i, j = 0, n_leaves - 1
    xi, xj = g["leaves"][i], g["leaves"][j]
    zero = n_leaves + len(nodes)
    nodes.append({"args": [i, j], "coefs": [xj, -xi]})
    nodes.append({"args": [zero]})
    root = n_leaves + len(g["nodes"]) - 1
    nodes.append({"args": [root, zero + 1], "coefs": [away(rng, 0.5, 1.5), away(rng, 0.5, 1.5)]})
    return {"leaves": list(g["leaves"]), "nodes": nodes}
