"""Do the solutions (the source of the student exercises) compute what the reference computes?

The solutions are a package named `micrograd`, like karpathy's on PyPI (installed
in the dev venv): `package_api` imports ours from solutions/ explicitly and
puts whatever was imported before back afterwards.
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import assume, given

from autograder import paths
from autograder.child.programs.worked import WORKED
from autograder.engines import package_api, reference_api
from autograder.selfcheck import agree


def _load_expressions():
    """specs() and build() of tests/reference/test_random_expressions.py: one strategy for both suites."""
    path = Path(__file__).resolve().parents[1] / "reference" / "test_random_expressions.py"
    spec = importlib.util.spec_from_file_location("_random_expressions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPR = _load_expressions()
REF = reference_api()
SOL = package_api(paths.SOLUTIONS, "solutions")


def test_the_solutions_package_is_ours_not_pypis():
    """Is the engine under test solutions/micrograd, and is karpathy's micrograd left importable as before?"""
    assert Path(SOL.Value.__init__.__code__.co_filename).resolve().is_relative_to(paths.SOLUTIONS)
    assert Path(SOL.MLP.__init__.__code__.co_filename).resolve().is_relative_to(paths.SOLUTIONS)
    if importlib.util.find_spec("micrograd") is not None:  # karpathy's, in the dev venv
        import micrograd.engine
        assert not Path(micrograd.engine.__file__).resolve().is_relative_to(paths.SOLUTIONS)


@pytest.mark.parametrize("name", WORKED)
def test_solutions_agree_with_the_reference_on_worked_examples(name):
    """Do the solutions give the reference's numbers on this worked example?"""
    ref, sol = WORKED[name](REF, {}), WORKED[name](SOL, {})
    assert ref.keys() == sol.keys()
    for quantity in ref:
        assert agree(float(sol[quantity]), ref[quantity]), f"{quantity}: solutions {sol[quantity]!r}, reference {ref[quantity]!r}"


@EXPR.SETTINGS
@given(EXPR.specs(ops=EXPR.EXERCISE_OPS))
def test_solutions_agree_with_the_reference_on_random_expressions(spec):
    """After one backward() on a random graph, does every named node have the reference's data and grad?

    The solutions keep micrograd's `_prev` set, so their hidden helper nodes cannot be
    walked in a fixed order; the named nodes (leaves, one per spec node, the root) can.
    """
    ref_values, ref_root = EXPR.build(REF, spec)
    ref_root.backward()
    assume(all(abs(v.data) < EXPR.BOUND and abs(v.grad) < EXPR.BOUND for v in EXPR.walk(ref_root)))
    sol_values, sol_root = EXPR.build(SOL, spec)
    sol_root.backward()  # recursive, micrograd-style: these graphs are < 100 deep
    for k, (r, s) in enumerate(zip(ref_values + [ref_root], sol_values + [sol_root])):
        assert agree(float(s.data), r.data), f"value {k}: data {s.data!r} vs reference {r.data!r}"
        assert agree(float(s.grad), r.grad), f"value {k}: grad {s.grad!r} vs reference {r.grad!r}"


def _same_start(activation):
    """The same MLP(3, [4, 4, 1]) on both engines: parameters from one vector, in parameters() order."""
    rng = random.Random(7)
    models = [api.MLP(3, [4, 4, 1], activation=activation) for api in (REF, SOL)]
    vector = [rng.uniform(-1, 1) for _ in models[0].parameters()]
    for model in models:
        for p, v in zip(model.parameters(), vector, strict=True):
            p.data = v
    return models


XS = [[0.5, -1.0, 2.0], [1.0, 0.0, -0.5], [-0.3, 0.8, 0.1], [2.0, 1.0, -1.0]]
YS = [1.0, -1.0, 0.5, 0.0]


def _assert_close_lists(sol, ref, what):
    assert len(sol) == len(ref), what
    for k, (s, r) in enumerate(zip(sol, ref)):
        assert agree(float(s), r), f"{what}[{k}]: solutions {s!r}, reference {r!r}"


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_solutions_mlp_forward_and_backward_match(activation):
    """With identical parameters, do the solutions' MLP output and parameter grads match the reference's?"""
    ref_mlp, sol_mlp = _same_start(activation)
    for x in XS:
        ref_mlp.zero_grad(), sol_mlp.zero_grad()
        ref_out, sol_out = ref_mlp(x), sol_mlp(x)
        ref_out.backward(), sol_out.backward()
        _assert_close_lists([sol_out.data], [ref_out.data], "output")
        _assert_close_lists([p.grad for p in sol_mlp.parameters()], [p.grad for p in ref_mlp.parameters()], "grads")


def test_solutions_mse_loss_matches():
    """Does the solutions' mse_loss give the reference's value and grads, with Value and number targets?"""
    ref_p, sol_p = ([api.Value(v) for v in (0.5, -1.0, 2.0)] for api in (REF, SOL))
    targets = [1.0, -0.5, 1.5]
    ref_loss, sol_loss = REF.mse_loss(ref_p, targets), SOL.mse_loss(sol_p, [SOL.Value(t) for t in targets])
    ref_loss.backward(), sol_loss.backward()
    _assert_close_lists([sol_loss.data] + [p.grad for p in sol_p], [ref_loss.data] + [p.grad for p in ref_p], "loss, grads")


def test_solutions_train_gives_the_same_losses():
    """Do a few training steps from the same start give the same loss list and final parameters?"""
    ref_mlp, sol_mlp = _same_start("tanh")
    ref_losses = REF.train(ref_mlp, XS, YS, 8, 0.05)
    sol_losses = SOL.train(sol_mlp, XS, YS, 8, 0.05)
    _assert_close_lists(sol_losses, ref_losses, "losses")
    _assert_close_lists([p.data for p in sol_mlp.parameters()], [p.data for p in ref_mlp.parameters()], "parameters")
