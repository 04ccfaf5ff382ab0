"""Pieces the case programs share: kit-built graph nodes, construction, reachability.

None of this is a task's solution. A "mix" node is a linear combination with the
kit's own chain rule, so a case can build a graph whose gradients depend on one
piece of student code only; the walk in `reachable` asks "can I get there?",
nothing about order.
"""


class ApiMismatch(TypeError):
    """The student's Value lacks what the exercise API requires for the kit to build its nodes."""


class ReturnedNone(TypeError):
    """An operation gave None where the exercise API has it return its result (a `return out` left out)."""


class NotAValue(TypeError):
    """A piece returned a plain number (a .data, a float) where the API has it return a Value."""


def a_value(api, result, what, reaches):
    """result itself when it is a Value (or anything but a plain number, which the comparison explains);
    for a plain number, NotAValue saying what to return instead."""
    if not isinstance(result, api.Value) and isinstance(result, (int, float)) and not isinstance(result, bool):
        raise NotAValue(f"{what} returned {result:.6g}, a number, not a Value: return the Value itself (not its "
                        f".data), so that backward() can reach {reaches}")
    return result


API_NEEDS = ("the exercise API needs Value(number) to make a node, and a node whose _prev (its children) "
             "and _backward (its chain-rule closure) can be set, as micrograd's Value has")


def mix(api, children, coefs, on_call=None):
    """A kit node worth sum(c * child.data) over (child, c), differentiated by the kit.

    A child given twice has its coefficients merged. The node's _prev is a tuple,
    so a student's backward() walks it in the same order on every run. An engine
    may build the node itself (the torch adapter's `native_mix`, so that torch,
    not the kit, differentiates it).

    The node is made with Value(number) alone and given its children afterwards:
    students' constructors differ past the first argument (keyword-only children,
    a label second, other names), and the kit must not depend on any of that.
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

    node = _linked(api, sum(c * child.data for child, c in pairs), tuple(unique))

    def _backward():
        # d(node)/d(child) = c: each child gets its coefficient times the node's grad
        if on_call is not None:
            on_call()
        for child, c in pairs:
            child.grad += c * node.grad
    try:
        node._backward = _backward
    except AttributeError:
        raise ApiMismatch(f"your Value does not let _backward be set: {API_NEEDS}") from None
    try:
        node._op = "mix"
    except AttributeError:
        pass  # _op is for reading graphs only
    return node


def _linked(api, value, children):
    """Value(value) with _prev = children (a tuple: a fixed order, whatever container the engine uses)."""
    try:
        node = api.Value(value)
    except TypeError as err:
        raise ApiMismatch(f"Value({value!r}) failed ({err}): {API_NEEDS}") from None
    try:
        node._prev = children
        if tuple(node._prev) == children:
            return node
    except (AttributeError, TypeError):
        pass
    try:  # _prev computed from what the constructor got: give it there, as micrograd's signature does
        node = api.Value(value, children, "mix")
        if set(map(id, node._prev)) == set(map(id, children)):
            return node
    except (AttributeError, TypeError):
        pass
    raise ApiMismatch(f"your Value's _prev can't be set to a node's children: {API_NEEDS}")


def seed(api, x):
    """The number x as a grad of the student's engine: a float, or, for an engine whose fresh grads are
    numpy arrays or scalars (child/adapt.py found one: api.grad_zero), one of those holding x."""
    zero = getattr(api, "grad_zero", None)
    if zero is None:
        return x
    if type(zero).__name__ == "ndarray":  # a fresh array of its shape (arithmetic on a 0-d one gives a scalar)
        grad = zero.astype(float)
        grad.fill(x)
        return grad
    return zero * 0 + x


def backprop_op(api, node, known, reset=False):
    """node._backward(), then the closures of the graph the operation built underneath it.

    An operation may be written with other operations (tanh as (e - 1) / (e + 1), with
    e = (2*x).exp(), as the lecture does): its result's _prev are then intermediate
    nodes, not the inputs. Their closures run after node's, in reverse topological
    order, down to the nodes in `known` (the inputs and the kit's other nodes, by id),
    which are never entered. Returns 1.0 if there was such a graph, else 0.0. reset: the
    intermediate nodes' grads are set to 0 first (the operation's closures run again).
    """
    seen = set(known)
    if id(node) in seen:
        return 0.0
    seen.add(id(node))
    return backprop_from(api, node, seen, reset)


def backprop_from(api, node, seen, reset=False):
    """backprop_op where `seen`, the ids of the nodes never entered, holds node's own (the caller's set: it grows)."""
    stack = [(node, True)]
    stack.extend((child, False) for child in _children(api, node) if id(child) not in seen)
    if len(stack) == 1:  # no graph underneath: the usual operation, its closure alone
        node._backward()
        return 0.0
    order = []
    while stack:  # iterative post-order: children before parents
        n, done = stack.pop()
        if done:
            order.append(n)
        elif id(n) not in seen:
            seen.add(id(n))
            stack.append((n, True))
            stack.extend((child, False) for child in _children(api, n) if id(child) not in seen)
    if reset:
        for n in order:
            if n is not node:
                n.grad = seed(api, 0.0)
    for n in reversed(order):
        n._backward()
    return 1.0 if any(_children(api, n) for n in order if n is not node) else 0.0


def _children(api, node):
    """The Values in node._prev (an int a buggy pow put there is not one)."""
    try:
        return [c for c in getattr(node, "_prev", ()) if isinstance(c, api.Value)]
    except TypeError:
        return []


def build(api, p, make_op=None, log=None):
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
        if "coefs" in spec:
            on_call = None if log is None else (lambda i=float(len(nodes)): log.append(i))
            node = mix(api, args, spec["coefs"], on_call)
        else:
            node = make_op(spec, args)
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
