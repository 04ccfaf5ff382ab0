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

from autograder.cases import hand, hand_backward, hand_nn
from autograder.cases.model import Case, Visibility
from autograder.cases.random_cases import backward_cases, op_cases
from autograder.cases.random_nn import nn_cases
from autograder.tasks import TASK_IDS

__all__ = ["Case", "PUBLIC_SEED", "build_cases"]

PUBLIC_SEED = 20240607
ACTIVATIONS = ("tanh", "relu")

_OPS = ("add", "mul", "pow", "tanh", "exp", "relu")


def _hand(task: str, activation: str) -> list[Case]:
    if task in _OPS:
        return getattr(hand, f"{task}_cases")()
    if task == "backward":
        return hand_backward.backward_cases()
    if task in ("neuron", "mlp"):
        return getattr(hand_nn, f"{task}_cases")(activation)
    return getattr(hand_nn, f"{task}_cases")()


def _random(task: str, seed: int, visibility: Visibility, activation: str) -> list[Case]:
    rng = random.Random(f"{seed}/{visibility}/{task}")
    prefix = "random" if visibility == "public" else "hidden"
    if task in _OPS:
        return op_cases(task, rng, prefix, visibility)
    if task == "backward":
        return backward_cases(rng, prefix, visibility)
    return nn_cases(task, rng, prefix, visibility, activation)


def build_cases(*, seed: int, visibility: Visibility, activation: str = "tanh") -> list[Case]:
    """Every task's cases of one visibility, in task order."""
    if visibility not in ("public", "hidden"):
        raise ValueError(f"visibility must be 'public' or 'hidden', not {visibility!r}")
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, not {activation!r}")
    cases = []
    for task in TASK_IDS:
        if visibility == "public":
            cases += _hand(task, activation)
        cases += _random(task, seed, visibility, activation)
    return cases
