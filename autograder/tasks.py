"""The task ids: the one list that stubs, cases, reports and --task share."""
from __future__ import annotations

TASKS: dict[str, str] = {
    "add": "the _backward of a + b",
    "mul": "the _backward of a * b",
    "pow": "the _backward of a ** k",
    "tanh": "the _backward of tanh",
    "exp": "the _backward of exp",
    "relu": "the _backward of relu",
    "backward": "Value.backward(): topological order and the chain rule",
    "neuron": "Neuron.__call__",
    "layer": "Layer.__call__",
    "mlp": "MLP: the layers __init__ builds, and __call__ through them",
    "parameters": "parameters() of Neuron, Layer and MLP",
    "zero_grad": "Module.zero_grad",
    "mse_loss": "mse_loss",
    "train": "train: the gradient-descent loop",
}

TASK_IDS: tuple[str, ...] = tuple(TASKS)

# The student module each task lives in.
TASK_MODULE: dict[str, str] = {
    **{t: "engine" for t in ("add", "mul", "pow", "tanh", "exp", "relu", "backward")},
    **{t: "nn" for t in ("neuron", "layer", "mlp", "parameters", "zero_grad")},
    **{t: "train" for t in ("mse_loss", "train")},
}
