"""Case programs for one operation's `_backward` closure (tasks add, mul, pow, tanh, exp, relu).

Neither program calls backward(): `local` calls the closure of one node by hand,
and `graph` calls the closures of a whole graph itself, in reverse creation
order. So these cases grade the operation's chain rule and nothing else.
"""
from ._graph import build


def apply(spec, args):
    """The operation spec["op"] on args, written as a student would write it.

    add / mul take two Values, or one Value and a number spec["const"] on the
    side spec["const_side"] ("left": 3 * a, the reflected form; else a * 3);
    pow takes the number exponent spec["k"]; tanh, exp and relu are methods.
    """
    op, a = spec["op"], args[0]
    if op in ("add", "mul"):
        if "const" in spec:
            left, right = (spec["const"], a) if spec.get("const_side") == "left" else (a, spec["const"])
        else:
            left, right = a, args[1]
        return left + right if op == "add" else left * right
    if op == "pow":
        return a ** spec["k"]
    return getattr(a, op)()


def local(api, p):
    """One node, one closure call: out = a op b; out.grad = upstream; out._backward().

    p: "op", "a", and "b" (two Values), "same" (a op a) or "const" for add and
    mul, "k" for pow; "upstream", the d(loss)/d(out) handed to the closure (not 1,
    so that a missing factor out.grad shows); "preset", grads the inputs hold
    before the call (the closure must add to them, not overwrite them).
    """
    a = api.Value(p["a"])
    if p.get("same"):
        inputs, args = [a], [a, a]
    elif "b" in p:
        inputs = args = [a, api.Value(p["b"])]
    else:
        inputs = args = [a]
    out = apply(p, args)
    for x, g in zip(inputs, p.get("preset", ())):
        x.grad = g
    out.grad = p["upstream"]
    out._backward()
    obs = {"out": out.data, "a.grad": a.grad}
    if len(inputs) == 2:
        obs["b.grad"] = inputs[1].grad
    return obs


def graph(api, p):
    """A graph of the op under test and kit "mix" nodes, back-propagated by the kit.

    p: "op" (and "k" per node for pow), "leaves", "nodes" (see _graph.build; a
    node without "coefs" is the op under test), "upstream" for the root (the last
    node). The kit sets root.grad and calls every node's _backward() from the last
    node created to the first: each node's grad is complete before its closure
    passes it on, so the leaves' grads are the true derivatives.
    """
    leaves, nodes = build(api, p, lambda spec, args: apply({**spec, "op": p["op"]}, args))
    root = nodes[-1]
    root.grad = p["upstream"]
    for node in reversed(nodes):
        node._backward()
    return {
        "out": root.data,
        "leaf_grads": [x.grad for x in leaves],
        "node_grads": [node.grad for node in nodes],
    }
