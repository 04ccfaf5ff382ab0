"""Hand-derived cases of backward(), on graphs of kit "mix" nodes.

A mix node is n = c1*x1 + c2*x2 + ..., with the kit's own _backward closure, so
these cases grade the order and the count of the closure calls and the seed
dL/dL = 1, never an operation. Leaves are numbered x0, x1, ..., nodes n0, n1, ...
in creation order; the root is the last node.
"""
from __future__ import annotations

from autograder.cases.common import case
from autograder.cases.hints import Hint
from autograder.cases.model import Case


def node(args, coefs) -> dict:
    return {"args": list(args), "coefs": [float(c) for c in coefs]}


# hints more precise than the task's, for the cases that catch one mistake in particular
HINTS = {
    "chain": Hint("Call _backward() from the output back to the leaves: the reverse of the topological order, "
                  "where every node comes after its children (append a node after visiting its children).",
                  "order_wrong"),
    "diamond": Hint("A node reached along two paths must be ordered, and its _backward() called, once: list it "
                    "the first time it is reached, and never again.", "visited_twice"),
    "twice": Hint("backward() adds to the leaves' grads (the closures use +=); it must not reset them.",
                  "grads_reset"),
    "leaf-root": Hint("Seed the output's grad with 1 (dL/dL) before the closures run, even on a single node.",
                      "not_seeded"),
    "equal-values": Hint("Remember the nodes you have visited, not their values: two different nodes can hold "
                         "the same number.", "node_skipped"),
    "keep-leaf-grads": Hint("backward() adds to the leaves' grads (the closures use +=); it must not reset them.",
                            "grads_reset"),
}


def _case(name: str, title: str, derivation: str, leaves, nodes, calls=1, preset=None) -> Case:
    p = {"leaves": [float(x) for x in leaves], "nodes": nodes, "calls": calls}
    if preset:
        p["preset"] = [float(g) for g in preset]
    return case("backward", f"hand-{name}", "backward.graph", p, title=title, derivation=derivation,
                hint=HINTS.get(name))


def backward_cases() -> list[Case]:
    # indices: the leaves first, then the nodes in creation order
    chain_coefs = [2, -0.5, 3, 0.5, -1, 2]
    chain = [node([i], [c]) for i, c in enumerate(chain_coefs)]
    return [
        _case("chain", "a chain x0 -> n0 -> ... -> n5 of six nodes, each a multiple of the one before",
              "n0 = 2*x0, n1 = -0.5*n0, n2 = 3*n1, n3 = 0.5*n2, n4 = -1*n3, n5 = 2*n4. From the root back: "
              "dn5/dn5 = 1, dn5/dn4 = 2, dn5/dn3 = 2 * -1 = -2, dn5/dn2 = -2 * 0.5 = -1, dn5/dn1 = -1 * 3 = -3, "
              "dn5/dn0 = -3 * -0.5 = 1.5, dn5/dx0 = 1.5 * 2 = 3. Each closure must run after the closure of the "
              "node above it, or it passes on a grad that is not complete yet (here: 0).",
              [1.5], chain),
        _case("diamond", "a shared interior node: n0 feeds both n1 and n2, which meet in n3",
              "n0 = 2*x0 + x1, n1 = 3*n0, n2 = -n0 + 0.5*x1, n3 = n1 + n2. dn3/dn1 = dn3/dn2 = 1, "
              "dn3/dn0 = 3 * 1 + -1 * 1 = 2 (both paths, summed), dx0 = 2 * 2 = 4, dx1 = 2 * 1 + 0.5 = 2.5. "
              "n0's closure must run once, after both n1's and n2's: visit each node once.",
              [2.0, -1.0], [node([0, 1], [2, 1]), node([2], [3]), node([2, 1], [-1, 0.5]), node([3, 4], [1, 1])]),
        _case("fan-out", "one leaf used by six nodes that all meet in the root",
              "n_i = c_i * x0 with c = 1, -2, 0.5, 3, -1, 1.5, and n6 = n0 + ... + n5 (+ 0.5 * x1). x0 reaches the "
              "root along six paths: dx0 = 1 - 2 + 0.5 + 3 - 1 + 1.5 = 3; dx1 = 0.5.",
              [0.5, 2.0], [*(node([0], [c]) for c in (1, -2, 0.5, 3, -1, 1.5)),
                           node([2, 3, 4, 5, 6, 7, 1], [1, 1, 1, 1, 1, 1, 0.5])]),
        _case("twice", "backward() called twice on n0 = 2*x0 - 3*x1: the leaves' grads add up",
              "One call gives dx0 = 2, dx1 = -3. Gradients accumulate: a second call adds them again, "
              "x0.grad = 4, x1.grad = -6 (that is why training calls zero_grad() before every backward()).",
              [1.5, -2.0], [node([0, 1], [2, -3])], calls=2),
        _case("leaf-root", "backward() on a leaf: the root is a leaf, x0.grad = dx0/dx0",
              "The graph is the leaf x0 alone, and dL/dL = 1: backward() must seed the root's grad with 1 even "
              "when there is nothing to propagate.", [3.0], []),
        _case("equal-values", "two different nodes that hold the same number, 2.0, meet in the root",
              "n0 = 2*x0 = 2 and n1 = 0.5*x1 = 2 are different nodes with equal data; n2 = n0 - 3*n1. "
              "dn2/dn0 = 1, dn2/dn1 = -3, so dx0 = 1 * 2 = 2 and dx1 = -3 * 0.5 = -1.5. Both closures must run.",
              [1.0, 4.0], [node([0], [2]), node([1], [0.5]), node([2, 3], [1, -3])]),
        _case("keep-leaf-grads", "the leaves already hold grads: backward() adds to them",
              "n0 = x0 + 2*x1, n1 = 3*n0 + x0: dn1/dx0 = 3 * 1 + 1 = 4, dn1/dx1 = 3 * 2 = 6. x0 and x1 held "
              "0.5 and -0.5 before: x0.grad = 4.5, x1.grad = 5.5. backward() must not reset the leaves.",
              [1.0, 2.0], [node([0, 1], [1, 2]), node([2, 0], [3, 1])], preset=[0.5, -0.5]),
    ]
