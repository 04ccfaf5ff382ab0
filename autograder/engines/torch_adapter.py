"""The exercise API on PyTorch: the second oracle every golden is checked against.

A Value wraps a 0-d float64 tensor. A leaf is built straight from the Python
float with torch.tensor(v, dtype=torch.float64), never through float32; every
other node is computed by torch ops on its children's tensors, so torch's
autograd, not code of ours, decides every gradient. Which op makes which node,
with which children in which order, mirrors reference/engine.py, so the two
engines can be compared node by node. This is the only module importing torch.
"""
from __future__ import annotations

import math

import torch

from autograder.tasks import ACTIVATIONS, OPS
from reference import nn as reference_nn
from reference.train import mse_loss, train

__all__ = ["Layer", "MLP", "Module", "Neuron", "Value", "mse_loss", "native_mix", "train"]

# each activation is the torch function of its name (tests/test_tasks.py checks that torch has it)
_ACT = {None: lambda z: z, **{name: getattr(torch, name) for name in ACTIVATIONS}}


def _leaf(x) -> torch.Tensor:
    return torch.tensor(float(x), dtype=torch.float64, requires_grad=True)


def _unary(fn, op):
    def method(self):
        return self._node(fn, (self,), op)
    method.__name__ = fn.__name__
    return method


class Value:
    """A scalar that remembers how it was computed; torch does the calculus."""

    __slots__ = ("t", "grad", "_prev", "_op", "_fn", "_hand_bw", "label")

    def __init__(self, data, _children=(), _op="", label=""):
        self.t = _leaf(data)
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._fn = None  # how this node's tensor follows from its children's (None: a leaf)
        self._hand_bw = None  # a _backward closure set by hand on a hand-built node
        self.label = label

    @classmethod
    def _node(cls, fn, children, op):
        out = cls.__new__(cls)
        out.t = fn(*(c.t for c in children))
        out.grad = 0.0
        out._prev = children
        out._op = op
        out._fn = fn
        out._hand_bw = None
        out.label = ""
        return out

    @property
    def data(self) -> float:
        return self.t.detach().item()

    @data.setter
    def data(self, value):
        if self._fn is not None:
            raise AttributeError("the torch adapter can set .data of a leaf only")
        self.t = _leaf(value)  # later ops use the new leaf; graphs built before keep the old one

    # -- arithmetic: the same node structure as the reference ------------------
    def __add__(self, other):
        if isinstance(other, Value):
            return self._node(torch.add, (self, other), "+")
        return self._node(lambda a: a + other, (self,), "+")

    def __mul__(self, other):
        if isinstance(other, Value):
            return self._node(torch.mul, (self, other), "*")
        return self._node(lambda a: a * other, (self,), "*")

    def __pow__(self, other):
        if not isinstance(other, (int, float)) or isinstance(other, bool):
            raise TypeError("only int and float exponents are supported")
        return self._node(lambda a: a ** other, (self,), f"**{other}")

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    __radd__ = __add__
    __rmul__ = __mul__

    def __rsub__(self, other):
        return (-self) + other

    def __rtruediv__(self, other):
        return other * self ** -1

    # beyond the tasks: for engines with more ops (tests/styles), and a variant's extra operation
    # (autograder.tasks.POOL) with its constant, each torch's own function
    def log(self, base=None):
        return self._node(torch.log if base is None else (lambda t: torch.log(t) / math.log(base)), (self,), "log")

    def sigmoid(self, c=None):
        return self._node(torch.sigmoid if c is None else (lambda t: torch.sigmoid(c * t)), (self,), "sigmoid")

    def softplus(self, beta):
        return self._node(lambda t: torch.nn.functional.softplus(t, beta=beta), (self,), "softplus")

    def sin(self, w):
        return self._node(lambda t: torch.sin(w * t), (self,), "sin")

    def leaky_relu(self, slope):
        return self._node(lambda t: torch.nn.functional.leaky_relu(t, slope), (self,), "leaky_relu")

    def power(self, k):
        return self ** k

    # -- backpropagation --------------------------------------------------------
    @property
    def _backward(self):
        """This node's local chain rule, as a callable: push self.grad to its children."""
        return self._hand_bw or self._local_vjp

    @_backward.setter
    def _backward(self, fn):
        self._hand_bw = fn

    def _local_vjp(self):
        # Rerun this one op on detached copies of the children, so that a child
        # which is also an ancestor of another child (x * (x + 1)) gets only its
        # direct contribution; a child used twice (x * x) is one input, and gets both.
        if self._fn is None:
            return
        distinct = list({id(c): c for c in self._prev}.values())
        free = {id(c): c.t.detach().requires_grad_() for c in distinct}
        out = self._fn(*(free[id(c)] for c in self._prev))
        upstream = torch.tensor(float(self.grad), dtype=torch.float64)
        grads = torch.autograd.grad(out, list(free.values()), upstream, allow_unused=True)
        for child, g in zip(distinct, grads):
            child.grad += 0.0 if g is None else g.item()

    def backward(self):
        """Leaves' grads += d(self)/d(leaf); interior grads = d(self)/d(node); as the reference."""
        nodes = _reachable(self)
        if any(n._hand_bw is not None for n in nodes):
            raise RuntimeError("torch cannot see a hand-set _backward: build the node with torch ops "
                               "(native_mix) or run the case without torch")
        grads = torch.autograd.grad(self.t, [n.t for n in nodes], retain_graph=True, allow_unused=True)
        for node, g in zip(nodes, grads):
            g = 0.0 if g is None else g.item()
            if node._prev:
                node.grad = g
            else:
                node.grad += g

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


# every method operation of the task table (tanh, exp, relu), as the torch function of its name
for _name, _op in OPS.items():
    if _op.form == "method":
        setattr(Value, _name, _unary(getattr(torch, _name), _op.label or _name))


def _reachable(root: Value) -> list[Value]:
    """Every node reachable from root (root first), each once, without recursion."""
    seen = {id(root): root}
    stack = [root]
    while stack:
        for child in stack.pop()._prev:
            if id(child) not in seen:
                seen[id(child)] = child
                stack.append(child)
    return list(seen.values())


def _as_values(xs):
    return tuple(x if isinstance(x, Value) else Value(x) for x in xs)


def _sum(values):
    return Value._node(lambda *t: torch.stack(t).sum(), _as_values(values), "sum")


def native_mix(children, coefs):
    """sum(c * child) as one node of torch ops: the kit's "mix" node
    (autograder/child/programs/_graph.py), differentiated by torch instead of by the kit."""
    coefs = [float(c) for c in coefs]
    children = tuple(children)
    cls = type(children[0]) if children else Value  # a variant's engine (engines.with_constant) keeps its class
    return cls._node(lambda *t: sum(c * x for c, x in zip(coefs, t)), children, "mix")


def _neuron(w, b, x, activation):
    """act(w . x + b) as one node with children (w..., b, x...), as the reference's."""
    n, act = len(w), _ACT[activation]

    def fn(*t):
        z = t[n]
        for wi, xi in zip(t[:n], t[n + 1:]):
            z = z + wi * xi
        return act(z)
    return Value._node(fn, (*w, b, *_as_values(x)), activation or "linear")


# the fused nodes that reference/nn.py and reference/train.py build with
Value.sum = staticmethod(_sum)
Value.neuron = staticmethod(_neuron)


# -- nn and train: the reference's own classes and functions, on this Value -------------
Module = reference_nn.Module


class Neuron(reference_nn.Neuron):
    Value = Value


class Layer(reference_nn.Layer):
    Neuron = Neuron


class MLP(reference_nn.MLP):
    Layer = Layer
