"""A scalar autograd engine.

Every Value remembers the Values it was computed from (_prev), the operation
that made it (_op), and a _backward closure that applies the chain rule for that
one operation: given out.grad = dL/d(out), it adds dL/d(input) to each input's grad.

The rules of this engine (the autograder checks them):
- Gradients accumulate: _backward adds to .grad (+=), never overwrites it, so a
  node used twice (a + a, x * x) gets both contributions. backward() does not
  reset grads either: call Module.zero_grad() before running it again.
- relu's derivative at exactly 0 is 0, as in PyTorch.
- ** takes a number (int or float) exponent only, never a Value.
"""
import math


class Value:
    """ stores a single scalar value and its gradient """

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op  # the op that produced this node, for graphviz / debugging / etc
        self.label = label

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            # d(a + b)/da = 1 and d(a + b)/db = 1
            raise NotImplementedError('add: pass out.grad on to the grads of both inputs (local derivative 1 each)')
        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            # d(a * b)/da = b and d(a * b)/db = a
            raise NotImplementedError("mul: add each input's local derivative times out.grad to that input's grad")
        out._backward = _backward

        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')

        def _backward():
            # d(a ** k)/da = k * a ** (k - 1), for a number k
            raise NotImplementedError('pow: add the local derivative times out.grad to self.grad')
        out._backward = _backward

        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            # d tanh(a)/da = 1 - tanh(a)**2: use the output t, not the input
            raise NotImplementedError('tanh: add the local derivative (written with the output t) times out.grad to self.grad')
        out._backward = _backward

        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            # d exp(a)/da = exp(a), which is out.data
            raise NotImplementedError('exp: add the local derivative times out.grad to self.grad')
        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            # d relu(a)/da = 1 where a > 0, and 0 where a <= 0 (0 at exactly 0, as in PyTorch)
            raise NotImplementedError('relu: add the local derivative (1 or 0) times out.grad to self.grad')
        out._backward = _backward

        return out

    def backward(self):
        # Backpropagate from this node. Order the graph topologically (every node
        # after all the nodes it was computed from, each node once), seed
        # self.grad = 1 (dL/dL), then call _backward() on every node, from self
        # back to the leaves (the reverse of that order).
        raise NotImplementedError("backward: order the graph topologically, seed self.grad, then call every node's _backward from the output back")

    def __neg__(self): # -self
        return self * -1

    def __radd__(self, other): # other + self
        return self + other

    def __sub__(self, other): # self - other
        return self + (-other)

    def __rsub__(self, other): # other - self
        return other + (-self)

    def __rmul__(self, other): # other * self
        return self * other

    def __truediv__(self, other): # self / other
        return self * other**-1

    def __rtruediv__(self, other): # other / self
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
