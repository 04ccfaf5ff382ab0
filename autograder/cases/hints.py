"""What a student should think about when a task's case fails: one hint per task."""
from __future__ import annotations

HINTS: dict[str, str] = {
    "add": "d(a + b)/da = d(a + b)/db = 1: each input's grad gets out.grad times 1. Add with += "
           "(a node used twice, as in a + a, gets both shares, and a grad already there is kept).",
    "mul": "d(a * b)/da = b and d(a * b)/db = a: a.grad += b.data * out.grad, and the other way "
           "round. With +=, x * x gets both shares: 2 * x * out.grad.",
    "pow": "d(a ** k)/da = k * a ** (k - 1) for a number k: times out.grad, added (+=) to self.grad. "
           "Check negative and fractional k too.",
    "tanh": "d tanh(a)/da = 1 - tanh(a)**2: use the output t (out.data), not the input; times "
            "out.grad, added (+=) to self.grad.",
    "exp": "exp is its own derivative: out.data * out.grad, added (+=) to self.grad.",
    "relu": "The derivative is 1 where the input was positive and 0 elsewhere, also at exactly 0 "
            "(as in PyTorch): add out.grad where it is 1, nothing where it is 0.",
    "backward": "Order the graph so that every node comes after the nodes it was computed from, "
                "each node once (a visited set); set self.grad = 1; then call _backward() on every "
                "node from the output back to the leaves (the reverse of that order).",
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
