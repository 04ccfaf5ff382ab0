"""Random cases, drawn per task from a seed: the same seed always gives the same cases.

Each task has its own stream, random.Random(f"{seed}/{visibility}/{task}"), so
adding a case to one task never changes another's. Public random cases are named
"<task>/random-<i>", hidden ones "<task>/hidden-<i>".
"""
from __future__ import annotations

import random

from autograder.cases import random_graphs as graphs
from autograder.cases.graph_text import describe
from autograder.cases.common import SYMBOL, away, case, describe_local, fmt, r3
from autograder.cases.hints import Hint
from autograder.cases.model import Case
from autograder.tasks import OPS

# How many random cases of each kind a task gets: (public, hidden).
COUNTS = {"local": (1, 2), "graph": (2, 3), "end-to-end": (2, 2)}


def _upstream(rng: random.Random) -> float:
    return away(rng, 0.5, 3.0)  # never 1: a missing factor out.grad must show


def local_params(rng: random.Random, op: str) -> dict:
    """A one-node case of op, its input in op's safe domain."""
    p: dict = {"op": op}
    spec = OPS[op]
    if spec.form == "binary":
        p["a"] = away(rng, 0.2, 3.0)
        form = rng.choice(("pair", "pair", "same", "const"))
        if form == "pair":
            p["b"] = away(rng, 0.2, 3.0)
        elif form == "same":
            p["same"] = True
        else:
            p.update(const=away(rng, 0.5, 3.0), const_side=rng.choice(("left", "right")))
    elif spec.form == "power":
        p["k"] = k = rng.choice(graphs.POW_EXPONENTS)
        p["a"] = r3(rng.uniform(0.3, 3.0)) if not isinstance(k, int) else away(rng, 0.3, 3.0)
    elif spec.kinks:
        p["a"] = r3(spec.kinks[0] + away(rng, 0.1, 3.0))  # either side of the kink, never on it
    else:
        p["a"] = r3(rng.uniform(-2.5, 2.5))
    p["upstream"] = _upstream(rng)
    if rng.random() < 0.5:
        p["preset"] = [away(rng, 0.1, 2.0) for _ in range(2 if "b" in p else 1)]
    return p


def op_cases(op: str, rng: random.Random, prefix: str, vis) -> list[Case]:
    n_local, n_graph = COUNTS["local"][vis == "hidden"], COUNTS["graph"][vis == "hidden"]
    out = []
    for _ in range(n_local):
        p = local_params(rng, op)
        out.append(case(op, f"{prefix}-{len(out) + 1}", "ops.local", p, title=describe_local(p), visibility=vis))
    for kink in OPS[op].kinks if vis == "hidden" else ():  # the kinks themselves, which random inputs never hit
        p = {**local_params(rng, op), "a": kink}
        out.append(case(op, f"{prefix}-{len(out) + 1}", "ops.local", p, title=describe_local(p), visibility=vis))
    for _ in range(n_graph):
        g = graphs.op_graph(rng, op, n_leaves=rng.randint(2, 3), n_nodes=rng.randint(5, 10))
        p = {"op": op, **g, "upstream": _upstream(rng)}
        n_ops = sum("coefs" not in s for s in g["nodes"])
        title = (f"a graph of {n_ops} '{SYMBOL[op]}' nodes and {_mixes(len(g['nodes']) - n_ops)} on "
                 f"{len(g['leaves'])} leaves, every _backward() called in turn, out.grad = {fmt(p['upstream'])}")
        out.append(case(op, f"{prefix}-{len(out) + 1}", "ops.graph", p, title=title, visibility=vis,
                        derivation=describe(g, op) if vis == "public" else ""))
    for _ in range(COUNTS["end-to-end"][vis == "hidden"]):
        out.append(end_to_end_case(op, rng, f"{prefix}-{len(out) + 1}", vis))
    return out


def _mixes(n: int) -> str:
    """The kit's own nodes of a graph, said so that a student knows what they are."""
    return f"{n} weighted sum{'s' * (n != 1)} (n = c1*x1 + c2*x2 + ..., the grader's own nodes, with a right _backward)"


def end_to_end_case(op: str, rng: random.Random, name: str, vis) -> Case:
    """A graph of op and kit nodes, back-propagated by the student's backward(): charged to op,
    and counted only while the backward task passes its own cases (see Case.needs)."""
    g = graphs.op_graph(rng, op, n_leaves=rng.randint(2, 3), n_nodes=rng.randint(4, 8))
    kinks = OPS[op].kinks
    if kinks:
        g = graphs.with_op_at_kink(rng, g, op)
    n_ops = sum("coefs" not in s for s in g["nodes"])
    title = (f"end to end: {n_ops} '{SYMBOL[op]}' nodes and {_mixes(len(g['nodes']) - n_ops)} on "
             f"{len(g['leaves'])} leaves, then your backward() from the last node")
    if kinks:
        title += f" (one {SYMBOL[op]} gets exactly {fmt(kinks[0])})"
    hint = Hint(f"Every other {op} case calls your closures one by one; this one walks the graph with your "
                f"backward(), so the node {SYMBOL[op]} makes must hold in _prev the Values it was computed from "
                "(and nothing else: not a number such as an exponent).", "walk_not_found")
    return case(op, name, "ops.through_backward", {"op": op, **g}, title=title, hint=hint, visibility=vis,
                needs=("backward",), derivation=describe(g, op) if vis == "public" else "")


def backward_cases(rng: random.Random, prefix: str, vis) -> list[Case]:
    shapes = ["dag"] if vis == "public" else ["chain", "dag", "big-dag", "twice", "dag"]
    out = []
    for shape in shapes:
        calls = 1
        if shape == "chain":
            g = graphs.mix_chain(rng, depth=rng.randint(6, 10))
            title = f"a chain of {len(g['nodes'])} nodes"
        elif shape == "twice":
            leaves = [away(rng, 0.2, 2.0) for _ in range(rng.randint(2, 4))]
            g = {"leaves": leaves, "nodes": [{"args": list(range(len(leaves))),
                                              "coefs": [away(rng, 0.3, 1.5) for _ in leaves]}]}
            calls, title = 2, f"backward() twice on one node over {len(leaves)} leaves: grads add up"
        else:
            size = rng.randint(25, 38) if shape == "big-dag" else rng.randint(8, 16)
            g = graphs.mix_dag(rng, n_leaves=rng.randint(2, 5), n_nodes=size)
            title = f"a graph of {len(g['nodes'])} nodes with shared sub-expressions on {len(g['leaves'])} leaves"
        p = {**g, "calls": calls}
        out.append(case("backward", f"{prefix}-{len(out) + 1}", "backward.graph", p, title=title,
                        visibility=vis, derivation=describe(g) if vis == "public" else ""))
    return out
