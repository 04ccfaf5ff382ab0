"""Case programs for one operation's `_backward` closure (tasks add, mul, pow, tanh, exp, relu, and a
variant's extra operation: a method such as a.sigmoid(), its constant written in the student's engine).

Neither program calls backward(): `local` calls the closure of one node by hand,
and `graph` calls the closures of a whole graph itself, in reverse creation
order. So these cases grade the operation's chain rule and nothing else. An
operation written with other operations (tanh from exp, / and -) has a graph of
its own under its result: the kit runs those closures too (backprop_op), and
says so in the observation "composite" (1, else 0), which no golden holds.
"""
from ._graph import NotAValue, ReturnedNone, backprop_from, backprop_op, build, seed

# how a case writes each operation, and the method of the student's Value that computes it
_WRITTEN = {"add": ("{l} + {r}", "__add__", "__radd__"), "mul": ("{l} * {r}", "__mul__", "__rmul__"),
            "pow": ("a ** {k}", "__pow__", ""), "tanh": ("a.tanh()", "tanh", ""), "exp": ("a.exp()", "exp", ""),
            "relu": ("a.relu()", "relu", "")}


def apply(spec, args):
    """The operation spec["op"] on args, written as a student would write it.

    add / mul take two Values, or one Value and a number spec["const"] on the
    side spec["const_side"] ("left": 3 * a, the reflected form; else a * 3);
    pow takes the number exponent spec["k"]; tanh, exp and relu are methods.
    """
    out = _apply(spec, args)
    if out is None:
        raise ReturnedNone(_returned_none(spec))
    if type(out) in (int, float):  # a number: the node's .data, returned in its place
        raise NotAValue(_returned_none(spec).replace("None", f"the {type(out).__name__} {out:.6g}", 1))
    return out


def _apply(spec, args):
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


def _returned_none(spec):
    """"a.tanh() returned None, not a Value: does tanh end with `return out`?"."""
    op = spec["op"]
    written, method, reflected = _WRITTEN.get(op, (f"a.{op}()", op, ""))  # a variant's extra operation
    number = f"{spec['const']:g}" if "const" in spec else None
    left_number = number is not None and spec.get("const_side") == "left"
    if left_number:
        method = reflected
    expr = written.format(l=number if left_number else "a", r=number if number and not left_number else "b",
                          k=spec.get("k"))
    return f"{expr} returned None, not a Value: does {method} end with `return out`?"


def local(api, p):
    """One node, one closure call: out = a op b; out.grad = upstream; out._backward().

    p: "op", "a", and "b" (two Values), "same" (a op a) or "const" for add and
    mul, "k" for pow; "upstream", the d(loss)/d(out) handed to the closure (not 1,
    so that a missing factor out.grad shows); "preset", grads the inputs hold
    before the call (the closure must add to them, not overwrite them).
    """
    inputs, out = _node(api, p)
    for x, g in zip(inputs, p.get("preset", ())):
        x.grad = seed(api, g)
    out.grad = seed(api, p["upstream"])
    composite = backprop_op(api, out, {id(x) for x in inputs})
    obs = {"out": out.data, "a.grad": inputs[0].grad, "composite": composite}
    if len(inputs) == 2:
        obs["b.grad"] = inputs[1].grad
    probes = probe(api, p)
    if probes is not None:
        obs["probe"] = probes
    return obs


def _node(api, p):
    """The case's inputs (each Value once) and out = a op b, made afresh."""
    a = api.Value(p["a"])
    if p.get("same"):
        inputs, args = [a], [a, a]
    elif "b" in p:
        inputs = args = [a, api.Value(p["b"])]
    else:
        inputs = args = [a]
    return inputs, apply(p, args)


# (grad the inputs hold, out.grad) of each probe: the local derivative, the same scaled, the same added
PROBES = ((0.0, 1.0), (0.0, 2.0), (1.0, 1.0))


def probe(api, p):
    """The closure of a node made afresh, called three times, once the case's observations are taken.

    Each call starts from inputs holding the grad g and out.grad = u, for (g, u) in PROBES:
    a right closure gives d, 2d and 1 + d (d its local derivative). What came out, input by
    input, lets the parent name a mistake (diagnosis): never compared, never scored. The case's
    own objects are not touched. None when the closure can't be called like that.
    """
    seen = []
    try:
        inputs, out = _node(api, p)
        for g, u in PROBES:
            for x in inputs:
                x.grad = seed(api, g)
            out.grad = seed(api, u)
            backprop_op(api, out, {id(x) for x in inputs}, reset=True)
            seen += [float(x.grad) for x in inputs]  # read now: a grad may be a cell written in place
    except Exception:  # the observations are taken: a probe that fails only goes unused
        return None
    return seen


def through_backward(api, p):
    """The same kind of graph as `graph`, back-propagated by the student's own backward().

    The end-to-end case: the operation's nodes must also be walkable (their _prev hold
    the Values they were made from, and nothing else), as every real backward() needs.
    p as for `graph`, without "upstream": backward() seeds the root's grad with 1.
    """
    def make(spec, args):
        return in_order(api, apply({**spec, "op": p["op"]}, args), args)

    leaves, nodes = build(api, p, make)
    root = nodes[-1]
    root.backward()
    return {"out": root.data, "leaf_grads": [x.grad for x in leaves]}


def in_order(api, node, args):
    """node with its _prev as a tuple in the order of its operands, when _prev is a set of them.

    micrograd's _prev is a set, walked in the order of memory addresses: a backward() that
    overwrites grads would give other numbers on other runs. A fixed order makes every
    verdict and message the same on every run. Constants the operation wrapped (3 in a * 3)
    follow the operands, and anything else (an exponent a buggy pow put there) stays, last;
    a _prev of other nodes (an op built from other ops) is left as it is.
    """
    prev = getattr(node, "_prev", None)
    if not isinstance(prev, (set, frozenset)):
        return node  # a list or tuple has its order already
    operands = {id(a) for a in args if isinstance(a, api.Value)}
    values = [c for c in prev if isinstance(c, api.Value)]
    constants = [c for c in values if id(c) not in operands and not _has_children(c)]
    if len(values) != len(constants) + sum(id(c) in operands for c in values):
        return node  # other nodes under it: an operation made of operations
    ordered = list({id(a): a for a in args if any(a is c for c in values)}.values())
    others = sorted((c for c in prev if not isinstance(c, api.Value)), key=repr)
    try:
        node._prev = tuple(ordered + sorted(constants, key=lambda c: repr(c.data)) + others)
    except (AttributeError, TypeError):
        pass
    return node


def _has_children(node):
    try:
        return bool(getattr(node, "_prev", ()))
    except TypeError:
        return False


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
    root.grad = seed(api, p["upstream"])
    known = {id(x) for x in leaves} | {id(node) for node in nodes}
    composite = 0.0
    for node in reversed(nodes):  # each node's closures down to the kit's nodes and the leaves (known, node too)
        composite = max(composite, backprop_from(api, node, set(known)))
    return {
        "composite": composite,
        "out": root.data,
        "leaf_grads": [x.grad for x in leaves],
        "node_grads": [node.grad for node in nodes],
    }


def sample(api, p):
    """The method p["op"] (a variant's extra operation) at each input of p["xs"]: a fresh Value each time,
    out.grad = p["upstream"], its closure called once. For forensics (autograder/variants/forensics.py):
    the parent tells from these numbers whose constant the method computes; never compared, never scored.
    """
    outs, grads = [], []
    for x in p["xs"]:
        a = api.Value(x)
        out = getattr(a, p["op"])()
        out.grad = p["upstream"]
        out._backward()
        outs.append(out.data)
        grads.append(a.grad)
    return {"out": outs, "a.grad": grads}
