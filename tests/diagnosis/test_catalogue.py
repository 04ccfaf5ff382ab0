"""Is every mistake the kit can name worded, for every task it can be named in, with the design's ids?"""
from __future__ import annotations

import pytest

from autograder.diagnosis.catalogue import DESIGNED, IDS, MESSAGES, RETEACH, message
from autograder.tasks import TASK_IDS, VARIANT_OPS
from reference.mistakes import MODELS

ISSUE_IDS = (  # issue 13, as listed there
    "overwrites_grad", "missing_upstream_grad", "derivative_at_input", "swapped_operands", "one_operand_only",
    "operator_precedence", "relu_gradient_at_zero", "wrong_local_derivative", "topo_not_reversed",
    "topo_wrong_order", "grad_not_seeded", "nodes_visited_twice", "zero_grad_missing", "zero_grad_after_backward",
    "update_sign", "learning_rate_ignored", "bias_missing", "parameter_order", "wrong_activation", "mse_not_mean",
)


def test_are_the_designs_ids_all_there():
    assert set(DESIGNED) == set(ISSUE_IDS)
    assert set(RETEACH) == set(MESSAGES) == set(IDS)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: f"{m.task}-{m.key}")
def test_does_every_mistake_read_as_one_sentence_in_its_task(model):
    text = message(model.task, model.id)
    assert text and "{" not in text and "\n" not in text and text.endswith(".")


@pytest.mark.parametrize("task", ["add", "mul", "pow", "tanh", "exp", "relu"])
def test_does_the_catch_all_say_the_right_derivative_of_each_op(task):
    text = message(task, "wrong_local_derivative")
    assert "{" not in text and "is wrong: it is " in text and text.endswith(".")


@pytest.mark.parametrize("task", list(VARIANT_OPS))
def test_does_the_catch_all_say_a_variants_derivative_with_its_own_constant(task):
    """An extra operation's right derivative is said with the student's constant, never a blank."""
    text = message(task, "wrong_local_derivative", 2.75)
    assert "{" not in text and "is wrong: it is " in text and "2.75" in text and text.endswith(".")


def test_does_every_task_have_a_mistake_it_can_name():
    """Every task of the assignment, and every extra operation of the variants' pool."""
    assert {m.task for m in MODELS} == set(TASK_IDS) | set(VARIANT_OPS)
