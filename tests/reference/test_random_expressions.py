"""Do the reference and torch agree on random expression graphs, node by node?

A strategy draws a small DAG as plain data (a spec): leaf values, then nodes
each applying an op to earlier nodes -- sometimes to the same node twice
(x * x, x + x), often to a node that many later nodes use too (fan-out).
`build` makes the spec's Values on any engine; the reference and the torch
adapter build the same nodes with the same (tuple) child order, so their
graphs can be walked side by side and every node compared, leaves and interior.
tests/solutions/ reuses `specs` and `build` on the student solutions.
"""
from __future__ import annotations


import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from autograder.engines import reference_api, torch_api
from autograder.selfcheck import agree

REF = reference_api()
TORCH = torch_api()
ENGINES = [REF, TORCH]

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, database=None)
BOUND = 1e4  # larger values and grads are rejected: cancellation would blur the comparison

CONSTANTS = (-2.5, -1.0, -0.5, 0.5, 1.5, 2.0, 3.0)  # never 0: also divisors and exponents


def pos(x):
    """x squashed into (0.5, 1.5): a safe base for fractional powers, log and division."""
    return x.tanh() * 0.5 + 1.0


OPS = {
    "add": lambda a, b, c: a + b,
    "sub": lambda a, b, c: a - b,
    "mul": lambda a, b, c: a * b,
    "div": lambda a, b, c: a / pos(b),
    "add_const": lambda a, b, c: a + c,
    "radd_const": lambda a, b, c: c + a,
    "sub_const": lambda a, b, c: a - c,
    "rsub_const": lambda a, b, c: c - a,
    "mul_const": lambda a, b, c: a * c,
    "rmul_const": lambda a, b, c: c * a,
    "div_const": lambda a, b, c: a / c,
    "rdiv_const": lambda a, b, c: c / pos(a),
    "neg": lambda a, b, c: -a,
    "square": lambda a, b, c: a**2,
    "cube": lambda a, b, c: a**3,
    "pow": lambda a, b, c: pos(a) ** c,
    "tanh": lambda a, b, c: a.tanh(),
    "exp": lambda a, b, c: a.tanh().exp(),
    "relu": lambda a, b, c: a.relu(),
    "log": lambda a, b, c: pos(a).log(),
    "sigmoid": lambda a, b, c: a.sigmoid(),
}
BINARY = {"add", "sub", "mul", "div"}
EXERCISE_OPS = tuple(op for op in OPS if op not in ("log", "sigmoid"))  # what every micrograd has


@st.composite
def specs(draw, ops=tuple(OPS), max_leaves=4, max_nodes=12):
    """A random DAG as plain data: {"leaves": [float], "nodes": [(op, i, j, constant)]}."""
    leaves = draw(st.lists(st.floats(-2.0, 2.0), min_size=1, max_size=max_leaves))
    nodes = []
    for k in range(draw(st.integers(1, max_nodes))):
        earlier = len(leaves) + k
        i = draw(st.integers(0, earlier - 1))
        j = draw(st.one_of(st.just(i), st.integers(0, earlier - 1)))  # often the same node twice
        nodes.append((draw(st.sampled_from(ops)), i, j, draw(st.sampled_from(CONSTANTS))))
    return {"leaves": leaves, "nodes": nodes}


def build(api, spec):
    """The spec's Values on `api` (leaves first, one per node) and a root that every sink feeds."""
    values = [api.Value(x) for x in spec["leaves"]]
    used = set()
    for op, i, j, c in spec["nodes"]:
        values.append(OPS[op](values[i], values[j], c))
        used |= {i, j} if op in BINARY else {i}
    sinks = [v for k, v in enumerate(values) if k not in used]
    root = sinks[0]
    for sink in sinks[1:]:
        root = root + sink
    return values, root


def walk(root):
    """Every node reachable from root, each once, in an order fixed by the tuple child order."""
    order, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            order.append(node)
            stack.extend(reversed(node._prev))
    return order


def assume_tame(nodes):
    assume(all(abs(n.data) < BOUND and abs(n.grad) < BOUND for n in nodes))


def assert_same_graphs(ref_nodes, torch_nodes, what="grad"):
    assert [n._op for n in ref_nodes] == [n._op for n in torch_nodes], "the two graphs differ in shape"
    for k, (r, t) in enumerate(zip(ref_nodes, torch_nodes)):
        assert agree(r.data, t.data), f"node {k} ({r._op or 'leaf'}): data {r.data!r} vs torch {t.data!r}"
        assert agree(r.grad, t.grad), f"node {k} ({r._op or 'leaf'}): {what} {r.grad!r} vs torch {t.grad!r}"


@SETTINGS
@given(specs())
def test_reference_agrees_with_torch_on_every_node(spec):
    """After one backward(), does every node (leaf or interior) hold the same data and grad as in torch?"""
    ref_values, ref_root = build(REF, spec)
    ref_root.backward()
    ref_nodes = walk(ref_root)
    assume_tame(ref_nodes)
    torch_values, torch_root = build(TORCH, spec)
    torch_root.backward()
    assert_same_graphs(ref_nodes, walk(torch_root))


@SETTINGS
@given(specs())
def test_backward_twice_accumulates_on_leaves_alike(spec):
    """Called twice, does backward() double the leaves' grads and leave interior grads at one pass, in both?"""
    graphs = []
    for api in ENGINES:
        _, root = build(api, spec)
        root.backward()
        once = [n.grad for n in walk(root)]
        root.backward()
        nodes = walk(root)
        assume_tame(nodes)
        for n, g in zip(nodes, once):
            expected = g if n._prev else 2 * g
            assert agree(n.grad, expected), f"{api.name}: {n._op or 'leaf'} grad {n.grad} after two passes, {g} after one"
        graphs.append(nodes)
    assert_same_graphs(*graphs)


@settings(SETTINGS, max_examples=50)
@given(specs(), st.sampled_from([0.75, -2.0, 3.5]))
def test_each_backward_closure_agrees_with_torch(spec, upstream):
    """Called directly, with an upstream grad other than 1, does every node's _backward() push the same grads?"""
    ref_nodes, torch_nodes = (walk(build(api, spec)[1]) for api in ENGINES)
    assume_tame(ref_nodes)
    for k in range(len(ref_nodes)):
        for nodes in (ref_nodes, torch_nodes):
            for n in nodes:
                n.grad = 0.0
            nodes[k].grad = upstream
            nodes[k]._backward()
        assert_same_graphs(ref_nodes, torch_nodes, what=f"grad after node {k}'s _backward()")


@pytest.mark.parametrize("api", ENGINES, ids=lambda api: api.name)
def test_relu_at_exactly_zero_has_grad_zero(api):
    """Is relu's derivative at exactly 0 taken as 0, as a node and inside a neuron?"""
    x = api.Value(0.0)
    y = x.relu()
    y.backward()
    assert (y.data, x.grad) == (0.0, 0.0)

    neuron = api.Neuron(1, activation="relu")
    neuron.w[0].data, neuron.b.data = 1.0, 0.0
    out = neuron([0.0])  # w*x + b is exactly 0
    out.backward()
    assert (out.data, neuron.w[0].grad, neuron.b.grad) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("api", ENGINES, ids=lambda api: api.name)
def test_backward_on_a_leaf_accumulates_one_per_call(api):
    """Does backward() called on a leaf itself add d(x)/d(x) = 1 to its grad each time?"""
    x = api.Value(3.0)
    x.backward()
    x.backward()
    assert x.grad == 2.0


def test_a_child_that_is_also_an_ancestor_of_the_other_child_gets_only_its_local_share():
    """For z = x * (x + 1), does z._backward() give x only d z/d x with (x + 1) held fixed, in both?"""
    for api in ENGINES:
        x = api.Value(3.0)
        y = x + 1
        z = x * y
        z.grad = 2.0
        z._backward()
        assert (x.grad, y.grad) == (2.0 * 4.0, 2.0 * 3.0), api.name


@pytest.mark.parametrize("api", ENGINES, ids=lambda api: api.name)
def test_a_hand_built_node_without_a_closure_passes_nothing_on(api):
    """Does Value(data, children, op) with no _backward leave its children's grads at 0, in both?"""
    a, b = api.Value(2.0), api.Value(3.0)
    node = api.Value(6.0, (a, b), "*")
    out = node * 2.0
    out.backward()
    assert (node.grad, a.grad, b.grad) == (2.0, 0.0, 0.0)


def test_torch_refuses_to_backpropagate_through_a_hand_set_closure():
    """Does the torch adapter fail loudly, rather than answer wrongly, on a node whose _backward was set by hand?"""
    a = TORCH.Value(2.0)
    node = TORCH.Value(4.0, (a,), "square")

    def _backward():
        a.grad += 2 * a.data * node.grad
    node._backward = _backward
    node.grad = 1.5
    node._backward()  # a hand-set closure is still callable directly
    assert a.grad == 6.0
    with pytest.raises(RuntimeError, match="hand-set _backward"):
        (node * 1.0).backward()


@SETTINGS
@given(st.lists(st.tuples(st.floats(-2, 2), st.sampled_from(CONSTANTS)), min_size=1, max_size=5))
def test_native_mix_agrees_with_the_kits_mix_node_on_the_reference(pairs):
    """Does torch's native_mix give the grads the kit's hand-differentiated mix node gives on the reference?"""
    from autograder.child.programs._graph import mix
    from autograder.engines.torch_adapter import native_mix

    results = []
    for api, make in ((REF, lambda xs, cs: mix(REF, xs, cs)), (TORCH, native_mix)):
        xs = [api.Value(x) for x, _ in pairs]
        node = make(xs, [c for _, c in pairs])
        out = node.tanh()
        out.backward()
        node.grad = 0.5  # and the node's own chain rule, called directly
        node._backward()
        results.append([node.data, out.data] + [x.grad for x in xs])
    assert all(agree(r, t) for r, t in zip(*results)), results
