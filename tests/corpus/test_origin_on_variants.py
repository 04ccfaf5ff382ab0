"""Is the origin of a wrong gradient marked right on every single-mistake variant whose failing case has a graph?

Every variant (variants.py) is checked as a student checks it (public cases). For each failing case
with a graph, the truth is found here independently, on the variant's engine in this process (trusted:
it is our own code, edited), by looking at each step on its own:
- an operation's step: the case's closures run from the output down, as its program runs them, each
  one watched: it is wrong when a child does not get the node's grad times the right local derivative
  (added to what the child held: a `=` for `+=` is wrong where the child held something);
- backward()'s walk: every kit node's closure records the grad it ran with; a step is wrong when the
  walk ran it other than once, or before its grad was complete; the seed is wrong when the output's
  grad is not 1.
A marked origin must be one of the wrong steps, with every other wrong step below it, and the nodes
marked "wrong because of it" must be wrong and below it. Every variant with a pictured case must have
its origin marked on at least one of them.
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import variants as corpus
from autograder.child.programs._graph import backprop_op, build, mix
from autograder.child.programs.ops import apply, local
from autograder.engines import package_api
from autograder.tasks import OPS

pytestmark = pytest.mark.corpus


def _pictured(job: tuple[str, str, str]) -> tuple[str, list]:
    """(variant, [(case id, its CaseGraph)]) for every failing public case with a graph."""
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    report = grade_path(Path(path), rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=False,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    return name, [(c.id, c.graph) for t in report.tasks for c in t.cases if c.graph is not None]


@pytest.fixture(scope="module")
def pictured(tmp_path_factory):
    work = tmp_path_factory.mktemp("origin")
    cache = work / "goldens"
    corpus.warm_goldens(cache)
    jobs = [(v.id, str(corpus.build(v, work / v.id)), str(cache)) for v in corpus.VARIANTS]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return {name: (Path(path), graphs) for (name, path, _), (_, graphs) in zip(jobs, pool.map(_pictured, jobs))}


@pytest.fixture(scope="module")
def cases():
    from autograder.config import load_rubric
    from autograder.grading import select_cases

    return {c.id: c for c in select_cases(load_rubric(corpus.RUBRIC_FILE), include_hidden=False)}


def _same(a, b) -> bool:
    return isinstance(a, (int, float)) and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def wrong_op_steps(api, case) -> set[str]:
    """The op nodes of an op task's case whose closure, as the case runs it, hands a child other than its
    local derivative times the node's grad (the closures run from the output down, as the program does)."""
    p = case.params
    op = OPS[p.get("op", case.task)]
    if case.program == "ops.local":
        obs = local(api, p)
        args = [p["a"], p["a"] if p.get("same") else p.get("b", p.get("const"))]
        d = _derivative(op, args, p)
        preset = list(p.get("preset", [0.0, 0.0]))
        want = {"a.grad": preset[0] + (sum(d) if p.get("same") else d[0]) * p["upstream"]}
        if "b" in p:
            want["b.grad"] = preset[1] + d[1] * p["upstream"]
        return {"out"} if any(not _same(obs[k], v) for k, v in want.items()) else set()
    leaves, nodes = build(api, p, lambda s, args: apply({**s, "op": p["op"]}, args))
    made = leaves + nodes
    nodes[-1].grad = p["upstream"]
    wrong = set()
    for k in reversed(range(len(nodes))):
        spec, node = p["nodes"][k], nodes[k]
        args = [made[i] for i in spec["args"]]
        before = {id(a): a.grad for a in args}
        grad = node.grad
        backprop_op(api, node, {id(x) for x in made} - {id(node)})
        if "coefs" in spec:
            continue  # the kit's own step
        d = _derivative(op, [a.data for a in args], spec)
        want = dict(before)
        for a, dk in zip(args, d):
            want[id(a)] += dk * grad
        if any(not _same(a.grad, want[id(a)]) for a in args):
            wrong.add(f"n{k}")
    return wrong


def _derivative(op, args, spec):
    if op.form == "binary":
        return op.derivative(args[0], spec["const"]) if "const" in spec else op.derivative(args[0], args[1])
    if op.form == "power":
        return op.derivative(args[0], spec["k"])
    return op.derivative(args[0])


def wrong_walk_steps(api, case) -> set[str]:
    """The nodes of a backward() case that the student's walk ran other than once with their whole grad,
    and the output when its grad is not 1 afterwards (the seed)."""
    p = case.params
    calls: dict[int, list[float]] = {}
    leaves = [api.Value(x) for x in p["leaves"]]
    made, nodes = list(leaves), []
    for k, spec in enumerate(p["nodes"]):
        node = mix(api, [made[i] for i in spec["args"]], spec["coefs"],
                   lambda k=k: calls.setdefault(k, []).append(nodes[k].grad))
        nodes.append(node)
        made.append(node)
    for x, g in zip(leaves, p.get("preset", ())):
        x.grad = g
    nodes[-1].backward()
    wrong = {f"n{k}" for k, node in enumerate(nodes)
             if len(calls.get(k, [])) != 1 or not _same(calls[k][0], node.grad)}
    if not _same(nodes[-1].grad, 1.0):
        wrong.add(f"n{len(nodes) - 1}")
    return wrong


def below_of(graph, name: str) -> set[str]:
    """The nodes under `name` in the picture's graph, following each node's children."""
    children = {n.name: n.children for n in graph.nodes}
    seen, todo = set(), list(children[name])
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(children.get(n, ()))
    return seen


def test_is_the_origin_right_on_every_variant_whose_failing_case_has_a_graph(pictured, cases):
    """Every origin marked is right; and every variant with a pictured case that observes every node's grad
    and has a wrong step has its origin marked on one of them at least (a case that sees only the leaves'
    grads, or whose mistake is no step, a leaf grad reset say, has none to mark)."""
    wrongly, unmarked, marked = {}, [], 0
    for variant in corpus.VARIANTS:
        folder, graphs = pictured[variant.id]
        api = package_api(folder, variant.id)
        could = found = False
        for case_id, graph in graphs:
            case = cases[case_id]
            if case.program not in ("ops.local", "ops.graph", "backward.graph") or case.params.get("calls", 1) != 1:
                assert not graph.origin, case_id  # the steps between the leaves are not observed
                continue
            truth = wrong_walk_steps(api, case) if case.program == "backward.graph" else wrong_op_steps(api, case)
            could = could or bool(truth)
            if not graph.origin:
                continue
            found, marked = True, marked + 1
            below = below_of(graph, graph.origin)
            if (graph.origin not in truth or not truth - {graph.origin} <= below
                    or not set(graph.after) <= below & set(graph.wrong)):
                wrongly[(variant.id, case_id)] = (graph.origin, sorted(truth), graph.after)
        if could and not found:
            unmarked.append(variant.id)
    assert not wrongly, f"origins marked wrongly: {wrongly}"
    assert marked and not unmarked, f"variants with a wrong step in a pictured case and no origin marked: {unmarked}"
