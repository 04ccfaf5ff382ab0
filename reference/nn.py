"""The reference neural-net pieces: exercise API names and parameter order.

A neuron is one fused node (``Value.neuron``), so a forward pass builds one node
per neuron instead of two per weight; results are the same as micrograd's. The
classes name the engine they build on (``Neuron.Value``, ``Layer.Neuron``,
``MLP.Layer``), so the torch adapter runs these same classes on its own Value.
"""
import random

from autograder.tasks import ACTIVATIONS
from reference.engine import Value


class Module:

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):
    Value = Value  # the engine: a Value class with a fused Value.neuron(w, b, x, activation)

    def __init__(self, nin, nonlin=True, activation="tanh"):
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, not {activation!r}")
        self.w = [self.Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = self.Value(0.0)
        self.nonlin = nonlin
        self.activation = activation

    def __call__(self, x):
        return self.Value.neuron(self.w, self.b, x, self.activation if self.nonlin else None)

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{self.activation if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    Neuron = Neuron

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [self.Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    Layer = Layer

    def __init__(self, nin, nouts, activation="tanh", last_nonlin=False):
        sz = [nin] + list(nouts)
        last = len(nouts) - 1
        self.layers = [
            self.Layer(sz[i], sz[i + 1], nonlin=(i != last or last_nonlin), activation=activation)
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
