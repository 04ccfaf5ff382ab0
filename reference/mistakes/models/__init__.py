"""The classic mistakes as models: the lecture's engine with one piece written wrong.

One module per kind of task, like the rest of the kit: `ops` (an operation's closure and forward
code), `backward`, `nn`, `train` (the loss and the loop); `base` holds the Model and the wiring.
What a model observes on a case is its prediction; the diagnosis names a mistake when one of
its models predicts every observation of a failing task.
"""
from __future__ import annotations

from reference.mistakes import engine
from reference.mistakes.models.backward import backward_models
from reference.mistakes.models.base import Model, build_api
from reference.mistakes.models.nn import nn_models
from reference.mistakes.models.ops import op_models
from reference.mistakes.models.train import train_models

CORRECT = Model("", "correct", "", build_api)

MODELS: tuple[Model, ...] = (
    *(m for task in engine.EVERY_OP for m in op_models(task)),
    *backward_models(), *nn_models(), *train_models(),
)

__all__ = ["CORRECT", "MODELS", "Model"]
