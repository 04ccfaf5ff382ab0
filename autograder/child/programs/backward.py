"""Case program for Value.backward() (task backward).

The graph is made of kit "mix" nodes only (linear combinations with the kit's
own _backward closures), so no operation's closure is involved: what is graded
is the order in which backward() calls the closures, that it calls each once,
and how it seeds the output's grad.
"""
from ._graph import build, seed


def graph(api, p):
    """root.backward(), `calls` times, on a graph of mix nodes; the root is the last node.

    p: "leaves", "nodes" (see _graph.build; every node has "coefs"), "calls"
    (1 or 2), "preset" (grads the leaves hold before, optional). With no nodes the
    root is the last leaf itself.

    Two calls are only ever made on graphs whose root's children are all leaves:
    there, every correct backward() adds the same gradient twice, whether or not
    it resets interior grads between calls.
    """
    order = []  # the index of each node whose closure backward() called, in call order
    leaves, nodes = build(api, p, log=order)
    root = nodes[-1] if nodes else leaves[-1]
    for x, g in zip(leaves, p.get("preset", ())):
        x.grad = seed(api, g)
    for _ in range(p["calls"]):
        root.backward()
    obs = {"leaf_grads": [x.grad for x in leaves]}
    if p["calls"] == 1:
        obs["node_grads"] = [node.grad for node in nodes]
        obs["root.grad"] = root.grad
    if getattr(api, "native_mix", None) is None:  # torch's nodes are not the kit's closures
        # which closures ran, in what order: tells one wrong walk from another where the grads
        # alone do not (leaves first, or the output's alone). For the diagnosis, never compared.
        obs["closure_calls"] = order
    return obs

