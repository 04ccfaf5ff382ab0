"""Case program for Value.backward() (task backward).

The graph is made of kit "mix" nodes only (linear combinations with the kit's
own _backward closures), so no operation's closure is involved: what is graded
is the order in which backward() calls the closures, that it calls each once,
and how it seeds the output's grad.
"""
from ._graph import build


def graph(api, p):
    """root.backward(), `calls` times, on a graph of mix nodes; the root is the last node.

    p: "leaves", "nodes" (see _graph.build; every node has "coefs"), "calls"
    (1 or 2), "preset" (grads the leaves hold before, optional). With no nodes the
    root is the last leaf itself.

    Two calls are only ever made on graphs whose root's children are all leaves:
    there, every correct backward() adds the same gradient twice, whether or not
    it resets interior grads between calls.
    """
    leaves, nodes = build(api, p)
    root = nodes[-1] if nodes else leaves[-1]
    for x, g in zip(leaves, p.get("preset", ())):
        x.grad = g
    for _ in range(p["calls"]):
        root.backward()
    obs = {"leaf_grads": [x.grad for x in leaves]}
    if p["calls"] == 1:
        obs["node_grads"] = [node.grad for node in nodes]
        obs["root.grad"] = root.grad
    return obs
