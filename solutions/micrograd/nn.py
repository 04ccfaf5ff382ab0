"""A small neural-net library on top of Value.

Parameters are always listed layer by layer, neuron by neuron, each neuron's
weights first and then its bias: the autograder sets and reads them in that order.
"""
import random
from micrograd.engine import Value


class Module:

    def zero_grad(self):
        # Reset the grad of every parameter to 0 (grads accumulate otherwise).
        # BEGIN SOLUTION zero_grad: reset the grad of every parameter
        for p in self.parameters():
            p.grad = 0
        # END SOLUTION

    def parameters(self):
        return []


class Neuron(Module):

    def __init__(self, nin, nonlin=True, activation='tanh'):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin  # False: a linear neuron, no activation
        self.activation = activation  # 'tanh' or 'relu'

    def __call__(self, x):
        # x is a list of numbers or Values, one per weight.
        # act = w . x + b; return act.tanh() or act.relu() (by self.activation)
        # if self.nonlin, else act itself.
        # BEGIN SOLUTION neuron: compute w . x + b with Values, then the activation if self.nonlin
        act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)
        if not self.nonlin:
            return act
        return act.tanh() if self.activation == 'tanh' else act.relu()
        # END SOLUTION

    def parameters(self):
        # the weights, in order, then the bias
        # BEGIN SOLUTION parameters: return this neuron's parameters, weights first, as one list
        return self.w + [self.b]
        # END SOLUTION

    def __repr__(self):
        return f"{self.activation if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        # every neuron applied to the same x; a layer of one neuron returns
        # that neuron's Value itself, not a list of one
        # BEGIN SOLUTION layer: apply every neuron to x; one neuron gives its Value, more give a list
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out
        # END SOLUTION

    def parameters(self):
        # every neuron's parameters, neuron by neuron
        # BEGIN SOLUTION parameters: return every neuron's parameters, neuron by neuron, as one list
        return [p for n in self.neurons for p in n.parameters()]
        # END SOLUTION

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):

    def __init__(self, nin, nouts, activation='tanh'):
        # One Layer per entry of nouts: layer i maps sz[i] inputs to sz[i+1]
        # outputs. Hidden layers use the activation (nonlin=True); the last
        # layer is linear (nonlin=False).
        sz = [nin] + list(nouts)
        # BEGIN SOLUTION mlp: build self.layers, one Layer per entry of nouts, the last one linear
        self.layers = [Layer(sz[i], sz[i+1], nonlin=i != len(nouts)-1, activation=activation) for i in range(len(nouts))]
        # END SOLUTION

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        # every layer's parameters, layer by layer
        # BEGIN SOLUTION parameters: return every layer's parameters, layer by layer, as one list
        return [p for layer in self.layers for p in layer.parameters()]
        # END SOLUTION

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
