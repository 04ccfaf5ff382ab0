"""When a case's hint is true of the code in front of it: one condition per kind of hint (issue 29).

A hint says what the student's code did (`with =, the second assignment overwrites...`) or what to
look at; it is shown on a failing public case only when what the case observed fits it: a hint
about `+=` only when a grad already there was lost, one about reflected methods only when a number
on the left failed, one about `_prev` only when the kit's own walk of the operation passed and the
student's backward() did not. Each hint (cases/hints.py, and the hand cases' own) names its
condition here, in WHEN; AGREES says which named mistakes (diagnosis/catalogue.py) a hint of that
condition agrees with: where a task's likely mistake is named, only those hints are kept.

The evidence (`Seen`) is the case's own observations and the task's probes (child/programs/ops.py:
PROBES, what each operation's closure did when called again from a grad of 0 with out.grad 1 and
2, then from a grad of 1), never the student's code.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

# the probes' (grad before, out.grad), in the order the child makes them: its list is those three
# rounds, each with one grad per input
STARTS, UPSTREAMS = (0.0, 0.0, 1.0), (1.0, 2.0, 1.0)


@dataclass(frozen=True)
class Seen:
    """What a failing case observed, and what its task's other cases showed of the same code."""
    status: str                                   # "failed" or "error"
    obs: dict
    golden: dict                                  # the expected observations
    params: dict
    close: Callable[[float, float], bool]         # the rubric's tolerance
    probes: tuple[tuple[list, list], ...] = ()    # (the student's probes, the right engine's) of the task
    own_passed: bool = False                      # every case of the task that needs no other task passed
    counted: bool = True                          # the case counts (the tasks it needs pass their own)
    message: str = ""                             # the case's error, as the report says it
    failing: tuple[dict, ...] = ()                # the params of the task's failing cases, this one's among them


def _num(x) -> bool:
    return isinstance(x, float) and math.isfinite(x)


def _rounds(probe: list) -> list[list[float]] | None:
    if not isinstance(probe, list) or len(probe) % 3 or not all(_num(x) for x in probe):
        return None
    n = len(probe) // 3
    return [probe[i * n:(i + 1) * n] for i in range(3)]


def _closures(seen: Seen) -> list[tuple[list[list[float]], list[list[float]]]]:
    pairs = [(_rounds(mine), _rounds(right)) for mine, right in seen.probes]
    return [(m, r) for m, r in pairs if m is not None and r is not None and len(m[0]) == len(r[0])]


def _lost_in_case(seen: Seen) -> bool:
    """The case's own numbers: every input's grad is what a closure that replaces it would leave (one input
    alone could be a wrong share that happens to equal that)."""
    got, want, p, close = seen.obs, seen.golden, seen.params, seen.close
    names = [n for n in ("a.grad", "b.grad") if n in want and _num(got.get(n))]
    preset = p.get("preset") or ()
    if preset:
        held = [(n, g) for n, g in zip(names, preset) if not close(g, 0.0)]
        return bool(held) and all(close(got[n], want[n] - g) for n, g in held)
    if p.get("same") and names:
        return close(got[names[0]], want[names[0]] / 2) and not close(want[names[0]], 0.0)
    return False


def replaced(seen: Seen) -> bool:
    """A grad already there was lost: the closure replaces (=) what it should add to (+=)."""
    closures = _closures(seen)
    if closures:
        return any(not seen.close(m[2][i], m[0][i] + 1.0) for m, _ in closures for i in range(len(m[0])))
    return _lost_in_case(seen)


def rule(seen: Seen) -> bool:
    """The local derivative or its product with out.grad is wrong (the closure from a grad of 0 with out.grad
    1 or 2 gives other numbers than the right one's), or nothing shows the closure right."""
    closures = _closures(seen)
    if closures:
        return any(not seen.close(m[k][i], r[k][i]) for m, r in closures for k in (0, 1) for i in range(len(m[0])))
    return seen.status == "failed" and not _lost_in_case(seen)


# the kit's own errors for an operation that gave no Value (child/programs/_graph.py): not the number's fault
_NO_VALUE = ("ReturnedNone", "NotAValue")


def _number_failed(seen: Seen, left: bool) -> bool:
    return (seen.status == "error" and "const" in seen.params and (seen.params.get("const_side") == "left") == left
            and not seen.message.startswith(_NO_VALUE))


def number_left(seen: Seen) -> bool:
    """The number was on the left (3 + a: the reflected method) and that raised, not on a number reaching the
    operation unwrapped (`'int' object has no attribute 'data'`: the reflected method is there) nor for want
    of a Value."""
    return _number_failed(seen, left=True) and "has no attribute" not in seen.message


def number_right(seen: Seen) -> bool:
    """A number on the right (a + 3) raised (not for want of a Value): it reached the operation unwrapped."""
    return _number_failed(seen, left=False)


def flat_gets_grad(seen: Seen) -> bool:
    """Where the derivative is 0 (relu at or below 0) the input's grad changed anyway (not merely lost)."""
    got, want = seen.obs.get("a.grad"), seen.golden.get("a.grad")
    return _num(got) and _num(want) and not seen.close(got, want) and not seen.close(got, 0.0)


def at_zero(seen: Seen) -> bool:
    """flat_gets_grad at exactly 0, while every case of a negative input passes: the test is `>= 0`, not the
    derivative everywhere."""
    return flat_gets_grad(seen) and not any(p.get("a", 0.0) < 0 for p in seen.failing if "same" not in p)


def _same(got, want, close) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(_same(g, w, close) for g, w in zip(got, want))
    return _num(got) and _num(want) and close(got, want)


def _model(mistake: str) -> Callable[[Seen], bool]:
    """The case observed what a model of `mistake` predicts (reference/mistakes/, in the golden), number by number."""
    def fits(seen: Seen) -> bool:
        models = [p for key, p in (seen.golden.get("mistakes") or {}).items()
                  if mistake in key.partition(".")[0].split("+") and "raises" not in p]
        return seen.status == "failed" and any(
            all(_same(seen.obs.get(k), v, seen.close) for k, v in p.items() if k in seen.golden) for p in models)
    fits.__name__ = mistake
    return fits


at_input, piles_up, summed = _model("derivative_at_input"), _model("zero_grad_missing"), _model("mse_not_mean")
passes_at_zero = _model("relu_gradient_at_zero")


def disconnected(seen: Seen) -> bool:
    """backward() could not reach some input from the output (the kit walked _prev: `connected` 0)."""
    return seen.obs.get("connected") == 0.0 and seen.golden.get("connected") == 1.0


def listed_one(seen: Seen) -> bool:
    """A layer of one neuron gave a list, not the Value itself."""
    return seen.obs.get("is_single") == 0.0 and seen.golden.get("is_single") == 1.0


def walk_not_found(seen: Seen) -> bool:
    """The operation's closures pass when the kit walks them, the student's backward() passes its own cases,
    and this walk through backward() raised, or left a leaf without the grad it should get: the node's
    children are not where the walk looks (or hold something that is not a Value)."""
    if not (seen.own_passed and seen.counted):
        return False
    got, want = seen.obs.get("leaf_grads"), seen.golden.get("leaf_grads")
    if seen.status == "error":
        return True
    return isinstance(got, list) and isinstance(want, list) and any(
        _num(g) and _num(w) and seen.close(g, 0.0) and not seen.close(w, 0.0) for g, w in zip(got, want))


def _calls(seen: Seen) -> list[int] | None:
    calls = seen.obs.get("closure_calls")
    return [int(c) for c in calls] if isinstance(calls, list) and all(_num(c) for c in calls) else None


def visited_twice(seen: Seen) -> bool:
    """backward() called a node's closure more than once."""
    calls = _calls(seen)
    return calls is not None and len(set(calls)) < len(calls)


def node_skipped(seen: Seen) -> bool:
    """backward() never called some node's closure."""
    calls = _calls(seen)
    return calls is not None and len(set(calls)) < len(seen.params.get("nodes", ()))


def order_wrong(seen: Seen) -> bool:
    """A node's closure ran before the closure of a node made from it (its grad not yet complete)."""
    calls, nodes = _calls(seen), seen.params.get("nodes", ())
    if calls is None:
        return False
    first = {}
    for at, n in enumerate(calls):
        first.setdefault(n, at)
    leaves = len(seen.params.get("leaves", ()))
    return any(arg - leaves in first and j in first and first[arg - leaves] < first[j]
               for j, spec in enumerate(nodes) for arg in spec.get("args", ()) if arg >= leaves)


def grads_reset(seen: Seen) -> bool:
    """The leaves' grads are what a backward() that resets them first would leave."""
    got, want, p = seen.obs.get("leaf_grads"), seen.golden.get("leaf_grads"), seen.params
    if not isinstance(got, list) or not isinstance(want, list) or len(got) != len(want) \
            or not all(_num(x) for x in got):
        return False
    if p.get("preset"):
        return any(seen.close(g, w - s) and not seen.close(s, 0.0) for g, w, s in zip(got, want, p["preset"]))
    if p.get("calls", 1) == 2:
        return any(seen.close(g, w / 2) and not seen.close(w, 0.0) for g, w in zip(got, want))
    return False


def not_seeded(seen: Seen) -> bool:
    """The output's grad is not 1 after backward()."""
    root = seen.obs.get("root.grad")
    return _num(root) and not seen.close(root, 1.0)


def failed(seen: Seen) -> bool:
    """For a hint that states the task's rule and says nothing of what the code did: a case that ran and
    computed other numbers (an error's own message says what went wrong, often in another task's code)."""
    return seen.status == "failed"


WHEN: dict[str, Callable[[Seen], bool]] = {
    "replaced": replaced, "rule": rule, "number_left": number_left, "number_right": number_right,
    "flat_gets_grad": flat_gets_grad, "at_zero": at_zero, "at_input": at_input, "walk_not_found": walk_not_found,
    "visited_twice": visited_twice, "node_skipped": node_skipped, "order_wrong": order_wrong,
    "grads_reset": grads_reset, "not_seeded": not_seeded, "disconnected": disconnected, "listed_one": listed_one,
    "summed": summed, "piles_up": piles_up, "passes_at_zero": passes_at_zero, "failed": failed}

# the named mistakes a hint of each condition agrees with (diagnosis/catalogue.py ids)
_LOCAL = frozenset({"missing_upstream_grad", "one_operand_only", "swapped_operands", "derivative_at_input",
                    "operator_precedence", "wrong_local_derivative", "grad_for_data"})
AGREES: dict[str, frozenset[str]] = {
    "replaced": frozenset({"overwrites_grad"}),
    "rule": _LOCAL,
    "number_left": frozenset({"reflected_op_missing"}),
    "number_right": frozenset({"number_not_wrapped"}),
    "flat_gets_grad": frozenset({"wrong_local_derivative"}),
    "at_zero": frozenset({"relu_gradient_at_zero"}),
    "at_input": frozenset({"derivative_at_input"}),
    "walk_not_found": frozenset(),
    "visited_twice": frozenset({"nodes_visited_twice", "append_outside_visited", "no_topological_order"}),
    "node_skipped": frozenset({"visited_by_value"}),
    "order_wrong": frozenset({"topo_not_reversed", "topo_wrong_order", "no_topological_order"}),
    "grads_reset": frozenset({"backward_resets_grads"}),
    "not_seeded": frozenset({"grad_not_seeded", "seed_accumulates"}),
    "disconnected": frozenset(),
    "listed_one": frozenset({"layer_list_for_one"}),
    "summed": frozenset({"mse_not_mean"}),
    "piles_up": frozenset({"zero_grad_missing"}),
    "passes_at_zero": frozenset({"relu_gradient_at_zero"}),
    "failed": frozenset(),
}
