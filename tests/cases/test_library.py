"""The case library: complete, stable, serialisable, and pointing at real programs."""
from __future__ import annotations

import importlib
import json

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.cases.random_graphs import fits, forward, paths
from autograder.tasks import TASK_IDS

HIDDEN_SEED = 8675309


@pytest.fixture(scope="module", params=["tanh", "relu"])
def activation(request):
    return request.param


@pytest.fixture(scope="module")
def public(activation):
    return build_cases(seed=PUBLIC_SEED, visibility="public", activation=activation)


@pytest.fixture(scope="module")
def hidden(activation):
    return build_cases(seed=HIDDEN_SEED, visibility="hidden", activation=activation)


def test_does_every_task_have_public_and_hidden_cases(public, hidden):
    for task in TASK_IDS:
        n_public = sum(c.task == task for c in public)
        n_hidden = sum(c.task == task for c in hidden)
        assert 5 <= n_public <= 12, (task, n_public)
        assert 4 <= n_hidden <= 9, (task, n_hidden)
    assert {c.task for c in public + hidden} == set(TASK_IDS)


def test_are_the_ids_unique_and_the_hidden_ones_apart(public, hidden):
    ids = [c.id for c in public + hidden]
    assert len(ids) == len(set(ids))
    assert not {c.id for c in public} & {c.id for c in hidden}
    for c in public + hidden:
        assert c.id.startswith(c.task + "/")
    assert {c.visibility for c in public} == {"public"}
    assert {c.visibility for c in hidden} == {"hidden"}
    assert all("/hidden-" in c.id for c in hidden)


def test_does_the_same_seed_give_the_same_cases(activation):
    for vis in ("public", "hidden"):
        assert build_cases(seed=123, visibility=vis, activation=activation) == \
               build_cases(seed=123, visibility=vis, activation=activation)


def test_does_another_hidden_seed_give_other_params(hidden, activation):
    other = build_cases(seed=HIDDEN_SEED + 1, visibility="hidden", activation=activation)
    assert [c.id for c in other] == [c.id for c in hidden]
    for task in TASK_IDS:
        mine = [c.params for c in hidden if c.task == task]
        theirs = [c.params for c in other if c.task == task]
        assert mine != theirs, task


def test_is_every_params_dict_json(public, hidden):
    for c in public + hidden:
        assert json.loads(json.dumps(c.params, allow_nan=False)) == c.params, c.id
        assert json.loads(json.dumps(c.to_job()))["program"] == c.program


def test_does_every_named_program_exist(public, hidden):
    for c in public + hidden:
        module, _, function = c.program.rpartition(".")
        program = getattr(importlib.import_module(f"autograder.child.programs.{module}"), function, None)
        assert callable(program), c.id


def test_does_every_case_say_what_it_does_and_what_to_think_about(public, hidden):
    for c in public + hidden:
        assert c.title and c.hint, c.id
    hand = [c for c in public if "/hand-" in c.id]
    assert {c.task for c in hand} == set(TASK_IDS)
    assert all(c.derivation for c in hand)


def test_are_the_operations_random_inputs_in_their_safe_domains(public, hidden):
    for c in public + hidden:
        p = c.params
        if c.program in ("ops.local", "ops.graph"):
            assert p["upstream"] != 1, c.id
        if "/hand-" in c.id:
            continue
        if c.program == "ops.local" and not (p["op"] == "relu" and p["a"] == 0.0):  # relu's kink, on purpose
            assert fits(p["op"], p["a"], p.get("k")), c.id
            assert p["op"] != "relu" or abs(p["a"]) >= 0.1, c.id
        if c.program == "ops.graph":
            # replay the forward pass in floats: every op node's input is in the op's domain
            vals = list(p["leaves"])
            for spec in p["nodes"]:
                args = [vals[i] for i in spec["args"]]
                if "coefs" in spec:
                    vals.append(sum(k * v for k, v in zip(spec["coefs"], args)))
                else:
                    assert fits(p["op"], args[0], spec.get("k")), c.id
                    vals.append(forward(p["op"], args, spec))
                assert abs(vals[-1]) < 50, c.id


def test_is_relu_at_exactly_zero_covered(public, hidden):
    for cases in (public, hidden):
        assert any(c.task == "relu" and c.params["a"] == 0.0 for c in cases if c.program == "ops.local")


def test_do_two_calls_of_backward_only_run_on_depth_one_graphs(public, hidden):
    # a classic backward() does not reset interior grads between calls, the reference does:
    # they agree only when the root's children are all leaves
    for c in public + hidden:
        if c.program == "backward.graph" and c.params["calls"] == 2:
            n_leaves = len(c.params["leaves"])
            assert len(c.params["nodes"]) == 1 and all(i < n_leaves for i in c.params["nodes"][0]["args"]), c.id


def test_are_backward_graphs_small_enough_for_recursive_code(public, hidden):
    for c in public + hidden:
        if c.program == "backward.graph":
            assert len(c.params["leaves"]) + len(c.params["nodes"]) <= 45, c.id
            assert paths(c.params) <= 5000, c.id


def test_are_bad_arguments_refused():
    with pytest.raises(ValueError):
        build_cases(seed=1, visibility="secret")
    with pytest.raises(ValueError):
        build_cases(seed=1, visibility="public", activation="sigmoid")


def test_does_every_hand_case_hint_speak_of_its_own_operation():
    """A hint keyed by a case name must not reach another task's case of the same name (exp/negative got relu's)."""
    from autograder.cases.common import OPS
    for c in build_cases(seed=PUBLIC_SEED, visibility="public"):
        if c.task in OPS and c.hint:
            others = [op for op in ("relu", "tanh") if op != c.task and f" {op} " in f" {c.hint} "]
            assert not others, f"{c.id}: hint speaks of {others}: {c.hint}"


def test_does_every_title_say_what_the_kits_own_nodes_are():
    """A student reads "kit nodes" as nothing; a title names them as weighted sums, with what they compute."""
    titles = [c.title for c in build_cases(seed=PUBLIC_SEED, visibility="public", activation="tanh")]
    assert not [t for t in titles if "kit node" in t]
    mixed = [t for t in titles if "weighted sum" in t]
    assert mixed and all("(n = c1*x1 + c2*x2 + ..., the grader's own nodes" in t for t in mixed)
