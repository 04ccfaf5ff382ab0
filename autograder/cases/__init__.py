"""The case library: every task's cases, hand-derived and random.

    build_cases(seed=PUBLIC_SEED, visibility="public")      # what students check against
    build_cases(seed=hidden_seed, visibility="hidden")      # the instructor's extra cases

Public cases are the hand-derived ones (each with a derivation a student can
redo on paper) and random ones drawn from `seed`; the handout and `check` use
PUBLIC_SEED. Hidden cases are random ones only, drawn from the instructor's
seed, with ids ("<task>/hidden-<i>") that no public case has. The same
arguments always give the same cases.
"""
from __future__ import annotations

import random
from typing import Callable, Mapping

from autograder.cases import hand, hand_backward, hand_nn, variant_op
from autograder.cases.model import Case, Visibility
from autograder.cases.random_cases import backward_cases, op_cases
from autograder.cases.random_nn import nn_cases
from autograder.cases.worked import Worked, worked_numbers
from autograder.tasks import ACTIVATIONS, POOL, TASK, TASK_IDS
from autograder.variants.model import BASE, Variant

__all__ = ["ACTIVATIONS", "Case", "HAND", "PUBLIC_SEED", "build_cases"]

PUBLIC_SEED = 20240607


Hand = Callable[[str, Worked], list[Case]]


def _fixed(build: Callable[[], list[Case]]) -> Hand:
    """The hand cases of a task that depend neither on the configured activation nor on the worked examples."""
    return lambda activation, worked: build()


def _worked(build: Callable[[Worked], list[Case]]) -> Hand:
    """The hand cases of a task that redo a worked example of the lecture, on the variant's numbers."""
    return lambda activation, worked: build(worked)


# Every task's hand-derived cases, given the configured activation and the worked examples' numbers
# (cases/worked.py): one entry per row of the task table (tests/cases/test_library.py fails on a task without one).
HAND: Mapping[str, Hand] = {
    "add": _worked(hand.add_cases), "mul": _worked(hand.mul_cases), "pow": _fixed(hand.pow_cases),
    "tanh": _fixed(hand.tanh_cases), "exp": _fixed(hand.exp_cases), "relu": _fixed(hand.relu_cases),
    "backward": _fixed(hand_backward.backward_cases),
    "neuron": hand_nn.neuron_cases, "layer": _fixed(hand_nn.layer_cases),
    "mlp": lambda activation, worked: hand_nn.mlp_cases(activation),
    "parameters": _fixed(hand_nn.parameters_cases), "zero_grad": _fixed(hand_nn.zero_grad_cases),
    "mse_loss": _fixed(hand_nn.mse_loss_cases), "train": _fixed(hand_nn.train_cases),
}


FAMILY = {**{t.id: t.family for t in POOL}, **{t: TASK[t].family for t in TASK_IDS}}


def _hand(task: str, activation: str, variant: Variant) -> list[Case]:
    if FAMILY[task] == "variant":
        return variant_op.hand_cases(task, variant.constant)
    return HAND[task](activation, worked_numbers(variant.worked))


def _random(task: str, seed: int, visibility: Visibility, activation: str, variant: Variant) -> list[Case]:
    rng = random.Random(f"{seed}/{visibility}/{task}")
    prefix = "random" if visibility == "public" else "hidden"
    family = FAMILY[task]
    if family == "variant":
        return variant_op.random_cases(task, variant.constant, rng, prefix, visibility)
    if family == "op":
        return op_cases(task, rng, prefix, visibility)
    if family == "backward":
        return backward_cases(rng, prefix, visibility)
    return nn_cases(task, rng, prefix, visibility, activation)


def build_cases(*, seed: int, visibility: Visibility, activation: str = "tanh",
                variant: Variant = BASE) -> list[Case]:
    """Every task's cases of one visibility, in task order; a variant's extra operation's last."""
    if visibility not in ("public", "hidden"):
        raise ValueError(f"visibility must be 'public' or 'hidden', not {visibility!r}")
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, not {activation!r}")
    cases = []
    for task in TASK_IDS + variant.tasks:
        if visibility == "public":
            cases += _hand(task, activation, variant)
        cases += _random(task, seed, visibility, activation, variant)
    return cases
