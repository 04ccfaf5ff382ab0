"""The mistaken engines (reference/mistakes/): right where they should be, wrong where they say.

- the lecture's engine they are built from observes what the reference observes, on every case;
- every model can be told from the right engine on its task's cases (else it could never be named);
- every model names a mistake of the catalogue, and every mistake but the catch-all has a model.
"""
from __future__ import annotations

import math

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.diagnosis.catalogue import IDS
from autograder.goldens.compute import MISTAKES, compute_goldens
from autograder.tasks import VARIANT_OPS
from autograder.variants.model import Variant
from reference.mistakes import CORRECT, MODELS

HIDDEN_SEED = 8675309


def _extra_operations(activation: str) -> list:
    """Every pool operation's cases (a variant's extra operation, at the middle of its constant's range)."""
    out = []
    for op, spec in VARIANT_OPS.items():
        variant = Variant(student=op, op=op, constant=sum(spec.between) / 2)
        out += [c for vis, seed in (("public", PUBLIC_SEED), ("hidden", HIDDEN_SEED))
                for c in build_cases(seed=seed, visibility=vis, activation=activation, variant=variant) if c.task == op]
    return out


@pytest.fixture(scope="module", params=["tanh", "relu"])
def goldens(request):
    cases = (build_cases(seed=PUBLIC_SEED, visibility="public", activation=request.param)
             + build_cases(seed=HIDDEN_SEED, visibility="hidden", activation=request.param)
             + _extra_operations(request.param))
    return cases, compute_goldens(cases, torch_check=False)


def agree(a, b) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(agree(x, y) for x, y in zip(a, b))
    return isinstance(b, float) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def test_does_the_lecture_engine_observe_what_the_reference_does(goldens):
    cases, found = goldens
    for case in cases:
        golden = found[case.id]
        right = golden[MISTAKES][CORRECT.key]
        differ = [name for name in golden if name != MISTAKES and not agree(right.get(name), golden[name])]
        assert not differ, (case.id, differ)


def test_can_every_model_be_told_from_the_right_engine(goldens):
    cases, found = goldens
    blind = []
    for model in MODELS:
        own = [c for c in cases if c.task == model.task]
        predictions = [(found[c.id], found[c.id][MISTAKES][model.key]) for c in own]
        if not any("raises" in p or any(not agree(p.get(k), g[k]) for k in g if k != MISTAKES)
                   for g, p in predictions):
            blind.append(model.key)
    # a relu neuron is the right one when the rubric asks for relu, and a tanh one when it asks for tanh
    assert set(blind) <= {"wrong_activation.relu", "wrong_activation.tanh"}, blind


def test_does_every_model_name_a_catalogued_mistake_and_every_mistake_have_a_model():
    assert {m.id for m in MODELS} <= set(IDS)
    assert set(IDS) - {m.id for m in MODELS} == {"wrong_local_derivative"}  # read off the probes instead
    assert len({(m.task, m.key) for m in MODELS}) == len(MODELS)
