"""Pieces the case programs share: kit-built graph nodes, construction, reachability.

None of this is a task's solution. A "mix" node is a linear combination with the
kit's own chain rule, so a case can build a graph whose gradients depend on one
piece of student code only; the walk in `reachable` asks "can I get there?",
nothing about order.
"""


def mix(api, children, coefs):
    """A kit node worth sum(c * child.data) over (child, c), differentiated by the kit.

    A child given twice has its coefficients merged. The node's _prev is a tuple,
    so a student's backward() walks it in the same order on every run. An engine
    may build the node itself (the torch adapter's `native_mix`, so that torch,
    not the kit, differentiates it).
    """
    unique, weight = [], {}
    for child, c in zip(children, coefs):
        if id(child) not in weight:
            unique.append(child)
            weight[id(child)] = 0.0
        weight[id(child)] += c
    pairs = [(child, weight[id(child)]) for child in unique]
    native = getattr(api, "native_mix", None)
    if native is not None:
        return native([child for child, _ in pairs], [c for _, c in pairs])

    node = api.Value(sum(c * child.data for child, c in pairs), tuple(unique), "mix")

    def _backward():
        # d(node)/d(child) = c: each child gets its coefficient times the node's grad
        for child, c in pairs:
            child.grad += c * node.grad
    node._backward = _backward
    try:
        node._prev = tuple(unique)  # a fixed order, whatever container the engine uses
    except AttributeError:
        pass
    return node


def build(api, p, make_op=None):
    """The leaves and the nodes of a case's graph, each list in creation order.

    p["leaves"] are numbers. p["nodes"] are dicts whose "args" index the leaves
    first and then the nodes made so far; a node with "coefs" is a mix node, any
    other is made by make_op(spec, args) (the operation under test). Creation
    order is a topological order: every node comes after its arguments.
    """
    leaves = [api.Value(x) for x in p["leaves"]]
    made = list(leaves)
    nodes = []
    for spec in p["nodes"]:
        args = [made[i] for i in spec["args"]]
        node = mix(api, args, spec["coefs"]) if "coefs" in spec else make_op(spec, args)
        nodes.append(node)
        made.append(node)
    return leaves, nodes


def construct(cls, *args, activation="tanh", **kwargs):
    """cls(*args, **kwargs), configured with an activation if it takes one.

    "tanh" is the exercise API's default, so it is not passed at all (karpathy's
    micrograd has no activation argument); another one is passed when the class
    accepts it.
    """
    if activation == "tanh":
        return cls(*args, **kwargs)
    try:
        return cls(*args, activation=activation, **kwargs)
    except TypeError:
        return cls(*args, **kwargs)


def reachable(root, targets):
    """1.0 if every target can be reached from root by following _prev links, else 0.0."""
    seen, todo = {}, [root]  # id -> node: holding the node keeps its id unique
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen[id(node)] = node
            todo.extend(getattr(node, "_prev", ()))
    return 1.0 if all(id(t) in seen for t in targets) else 0.0


def number(api, x):
    """The number in x: x.data for a Value, x itself otherwise."""
    return x.data if isinstance(x, api.Value) else x
