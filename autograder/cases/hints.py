"""What a student should think about when a task's case fails: one hint per task, each with its condition.

HINTS is the task's hint as a notebook's question states it (the rule, before any code exists).
TASK_HINTS is the hint a failing case of the task shows, each a `Hint` with the condition under which
it is true of the code in front of it (cases/hint_when.py: a hint about `+=` only where a grad was
lost). The hand cases' own hints (hand.py, hand_backward.py, hand_nn.py) are Hints too.
"""
from __future__ import annotations

from dataclasses import dataclass

from autograder.cases.hint_when import WHEN


@dataclass(frozen=True)
class Hint:
    text: str
    when: str  # the condition it needs, a name in hint_when.WHEN

    def __post_init__(self):
        if self.when not in WHEN:
            raise ValueError(f"hint {self.text[:40]!r}: no condition named {self.when!r} in hint_when.WHEN")


# each operation's rule (true whatever the code), and what its accumulation adds for a notebook's question
_RULE = {
    "add": "d(a + b)/da = d(a + b)/db = 1: each input's grad gets out.grad times 1.",
    "mul": "d(a * b)/da = b and d(a * b)/db = a: a's share is b.data * out.grad, and the other way round.",
    "pow": "d(a ** k)/da = k * a ** (k - 1) for a number k (negative and fractional k too), times out.grad.",
    "tanh": "d tanh(a)/da = 1 - tanh(a)**2: use the output t (out.data), not the input; times out.grad.",
    "exp": "exp is its own derivative: out.data, times out.grad.",
    "relu": "The derivative is 1 where the input was positive and 0 elsewhere, also at exactly 0 "
            "(as in PyTorch): add out.grad where it is 1, nothing where it is 0.",
}
_ADDS = {
    "add": " Add with += (a node used twice, as in a + a, gets both shares, and a grad already there is kept).",
    "mul": " With +=, x * x gets both shares: 2 * x * out.grad.",
    "pow": " Add it (+=) to self.grad.",
    "tanh": " Add it (+=) to self.grad.",
    "exp": " Add it (+=) to self.grad.",
    "relu": "",
}
_BACKWARD = ("Order the graph so that every node comes after the nodes it was computed from, each node once; set "
             "self.grad = 1; then call _backward() on every node from the output back to the leaves (the reverse "
             "of that order).")
_NN = {
    "neuron": "act = w . x + b computed with Value operations (so backward() can reach w, b and "
              "x), then act.tanh() or act.relu() by self.activation only if self.nonlin.",
    "layer": "Call every neuron on the same x, in order. A layer of one neuron returns that "
             "neuron's Value itself, not a list of one.",
    "mlp": "One Layer per entry of nouts, layer i mapping sz[i] inputs to sz[i+1] outputs; hidden "
           "layers nonlin with the configured activation, the last layer linear (nonlin=False).",
    "parameters": "Return the model's own Value objects, not copies: layer by layer, neuron by "
                  "neuron, the weights and then the bias, as one flat list.",
    "zero_grad": "Set .grad = 0 on every Value of self.parameters(); leave .data alone.",
    "mse_loss": "The mean, not the sum, of (prediction - target)**2, computed with Value operations "
                "so the loss stays connected to the predictions; targets may be numbers or Values.",
    "train": "Every step: model.zero_grad(); loss = mse_loss([model(x) for x in xs], ys); "
             "loss.backward(); p.data -= lr * p.grad for every parameter; append loss.data (a "
             "float, taken before the update). One loss per step.",
}

HINTS: dict[str, str] = {
    **{op: _RULE[op] + _ADDS[op] for op in _RULE},
    "backward": _BACKWARD.replace("each node once;", "each node once (a visited set);"),
    **_NN,
}
# a case's: the operations' rule where the closure's own numbers are wrong; the rest, rules that say nothing
# of what the code did, on any failing case
TASK_HINTS: dict[str, Hint] = {
    **{op: Hint(text, "rule") for op, text in _RULE.items()},
    "backward": Hint(_BACKWARD, "failed"),
    **{task: Hint(text, "failed") for task, text in _NN.items()},
}
