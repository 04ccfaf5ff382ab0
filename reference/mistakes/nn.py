"""The lecture's Module, Neuron, Layer and MLP, on a mistaken engine's Value (reference/mistakes).

Written as the solutions are; a mistaken model subclasses one class and rewrites one method.
Each class names what it builds on (`Neuron.Value`, `Layer.Neuron`, `MLP.Layer`), so that a
model's classes are wired together by `models.api`.
"""
import random

from reference.mistakes.engine import Value


class Module:

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):
    Value = Value

    def __init__(self, nin, nonlin=True, activation="tanh"):
        self.w = [self.Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = self.Value(0.0)
        self.nonlin = nonlin
        self.activation = activation

    def weighted_sum(self, x):
        return sum((wi * xi for wi, xi in zip(self.w, x)), self.b)

    def activate(self, act):
        return getattr(act, self.activation)()

    def __call__(self, x):
        act = self.weighted_sum(x)
        return self.activate(act) if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    Neuron = Neuron

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [self.Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP(Module):
    Layer = Layer

    def __init__(self, nin, nouts, activation="tanh"):
        sz = [nin] + list(nouts)
        self.layers = [self.Layer(self.fan_in(sz, i), sz[i + 1], nonlin=self.nonlin(i, len(nouts)),
                                  activation=activation) for i in self.built(len(nouts))]

    def fan_in(self, sz, i):
        return sz[i]

    def nonlin(self, i, n):
        return i != n - 1

    def built(self, n):
        return range(n)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
