"""The lecture's Value, written as students write it (closures, a recursive topological sort),
with each piece a student writes replaceable by a classic mistake.

`Value.rules[task]` is the body of an operation's `_backward` closure, `rule(out, operands, k)`;
`Value.walk(root)` is backward(). A mistaken engine is a subclass that swaps one of them
(reference/mistakes/models/); this class itself is the right one, and agrees with the
reference on every case (tests/reference/test_mistakes.py).
"""
import math

from autograder.tasks import EVERY_OP, OPS, VARIANT_OPS


def local_derivatives(task, operands, k):
    """d out / d each operand, by the task table's own derivative (k: pow's exponent, a variant's constant)."""
    op = EVERY_OP[task]
    a = operands[0].data
    if op.form == "binary":
        return op.derivative(a, operands[1].data)
    if op.form == "power" or op.constant:
        return op.derivative(a, k)
    return op.derivative(a)


def chain(task):
    """The right closure: every operand adds its local derivative times out.grad."""
    def rule(out, operands, k):
        for x, d in zip(operands, local_derivatives(task, operands, k)):
            x.grad += d * out.grad
    return rule


def topological(root):
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build(child)
            topo.append(v)
    build(root)
    return topo


def walk(root):
    """backward(): seed dL/dL = 1, then every closure from the output back to the leaves."""
    topo = topological(root)
    root.grad = 1.0
    for v in reversed(topo):
        v._backward()


def _with_constant(task):
    """A variant's extra operation, a.sigmoid(c): its constant an argument here, as the reference's (the kit binds
    it, engines.with_constant, as a student's engine.py has it written in)."""
    forward = VARIANT_OPS[task].forward

    def method(self, c):
        return self._node(task, forward(self.data, c), (self,), c)
    method.__name__ = task
    return method


class Value:
    rules = {task: chain(task) for task in EVERY_OP}
    walk = staticmethod(walk)

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(dict.fromkeys(_children))  # each child once, in operand order
        self._op = _op

    def _node(self, task, data, operands, k=None):
        out = type(self)(data, operands, task)
        rule = self.rules[task]

        def _backward():
            rule(out, operands, k)
        out._backward = _backward
        return out

    def _wrap(self, other):
        return other if isinstance(other, Value) else type(self)(other)

    def __add__(self, other):
        other = self._wrap(other)
        return self._node("add", self.data + other.data, (self, other))

    def __mul__(self, other):
        other = self._wrap(other)
        return self._node("mul", self.data * other.data, (self, other))

    def __pow__(self, k):
        return self._node("pow", self.data ** k, (self,), k)

    def tanh(self):
        return self._node("tanh", math.tanh(self.data), (self,))

    def exp(self):
        return self._node("exp", math.exp(self.data), (self,))

    def relu(self):
        return self._node("relu", self.data if self.data > 0 else 0.0, (self,))

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):
        return other * self ** -1

    def backward(self):
        type(self).walk(self)

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


for _task in VARIANT_OPS:
    setattr(Value, _task, _with_constant(_task))
