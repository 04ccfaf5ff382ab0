"""The reference Value: the exercise API, built for speed and determinism.

Differences from micrograd that do not change any result:
- children are a tuple (``_prev``), so traversal order never depends on memory
  addresses;
- each node keeps a plain function ``_bw(node)`` for its local chain rule
  instead of a fresh closure, and ``_backward()`` calls it;
- ``backward()`` sorts the graph iteratively, so a 100,000-deep chain works;
- one pass of ``backward()`` propagates only that pass's gradient: interior
  nodes start the pass at 0 and leaves accumulate, exactly as in PyTorch.
"""
import math


def _bw_none(out):
    pass


def _bw_add(out):
    a, b = out._prev
    a.grad += out.grad
    b.grad += out.grad


def _bw_add_const(out):
    out._prev[0].grad += out.grad


def _bw_mul(out):
    a, b = out._prev
    g = out.grad
    a.grad += b.data * g
    b.grad += a.data * g


def _bw_mul_const(out):
    out._prev[0].grad += out._arg * out.grad


def _bw_pow(out):
    (a,) = out._prev
    k = out._arg
    a.grad += k * a.data ** (k - 1) * out.grad


def _bw_tanh(out):
    out._prev[0].grad += (1.0 - out.data * out.data) * out.grad


def _bw_exp(out):
    out._prev[0].grad += out.data * out.grad


def _bw_relu(out):
    if out.data > 0:
        out._prev[0].grad += out.grad


def _bw_log(out):
    a = out._prev[0]
    a.grad += out.grad / (a.data * out._arg)


def _bw_sigmoid(out):
    s = out.data
    out._prev[0].grad += out._arg * s * (1.0 - s) * out.grad


def _bw_softplus(out):
    x = out._arg * out._prev[0].data
    s = 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))
    out._prev[0].grad += s * out.grad


def _bw_sin(out):
    w = out._arg
    out._prev[0].grad += w * math.cos(w * out._prev[0].data) * out.grad


def _bw_leaky_relu(out):
    out._prev[0].grad += (out.grad if out._prev[0].data > 0 else out._arg * out.grad)


def _bw_sum(out):
    g = out.grad
    for c in out._prev:
        c.grad += g


def _bw_dot(out):
    # out = act(sum_i w_i * x_i + b); _prev = (w_0..w_{n-1}, b, x_0..x_{n-1});
    # _arg = (n, derivative of the activation at this output)
    n, dact = out._arg
    g = out.grad * dact
    prev = out._prev
    for i in range(n):
        w = prev[i]
        x = prev[n + 1 + i]
        w.grad += x.data * g
        x.grad += w.data * g
    prev[n].grad += g


class Value:
    """A scalar that remembers how it was computed."""

    __slots__ = ("data", "grad", "_prev", "_op", "_bw", "_arg", "label")

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = float(data)
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._bw = _bw_none
        self._arg = None
        self.label = label

    @classmethod
    def _node(cls, data, children, op, bw, arg=None):
        out = cls.__new__(cls)
        out.data = data
        out.grad = 0.0
        out._prev = children
        out._op = op
        out._bw = bw
        out._arg = arg
        out.label = ""
        return out

    @property
    def _backward(self):
        """This node's local chain rule, as a callable: push self.grad to its children."""
        return lambda: self._bw(self)

    @_backward.setter
    def _backward(self, fn):
        # a hand-built node (a case program's) brings its own closure
        self._bw = lambda node: fn()

    # -- arithmetic ---------------------------------------------------------
    def __add__(self, other):
        if isinstance(other, Value):
            return self._node(self.data + other.data, (self, other), "+", _bw_add)
        return self._node(self.data + other, (self,), "+", _bw_add_const)

    def __mul__(self, other):
        if isinstance(other, Value):
            return self._node(self.data * other.data, (self, other), "*", _bw_mul)
        return self._node(self.data * other, (self,), "*", _bw_mul_const, other)

    def __pow__(self, other):
        if not isinstance(other, (int, float)) or isinstance(other, bool):
            raise TypeError("only int and float exponents are supported")
        return self._node(self.data ** other, (self,), f"**{other}", _bw_pow, other)

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return (-self) + other

    def __rtruediv__(self, other):
        return other * self ** -1

    # -- functions ----------------------------------------------------------
    def tanh(self):
        return self._node(math.tanh(self.data), (self,), "tanh", _bw_tanh)

    def exp(self):
        return self._node(math.exp(self.data), (self,), "exp", _bw_exp)

    def relu(self):
        x = self.data
        return self._node(x if x > 0 else 0.0, (self,), "ReLU", _bw_relu)

    def log(self, base=math.e):
        return self._node(math.log(self.data) / math.log(base), (self,), "log", _bw_log, math.log(base))

    def sigmoid(self, c=1.0):
        x = c * self.data
        if x >= 0:
            s = 1.0 / (1.0 + math.exp(-x))
        else:
            e = math.exp(x)
            s = e / (1.0 + e)
        return self._node(s, (self,), "sigmoid", _bw_sigmoid, c)

    # -- a variant's extra operations (autograder.tasks.POOL), each with its constant ---------
    def softplus(self, beta):
        x = beta * self.data
        out = (x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))) / beta
        return self._node(out, (self,), "softplus", _bw_softplus, beta)

    def sin(self, w):
        return self._node(math.sin(w * self.data), (self,), "sin", _bw_sin, w)

    def leaky_relu(self, slope):
        x = self.data
        return self._node(x if x > 0 else slope * x, (self,), "leaky_relu", _bw_leaky_relu, slope)

    def power(self, k):
        return self ** k  # the power rule's node, with the variant's exponent

    # -- fused nodes (used by nn and train to keep graphs small) --------------
    @staticmethod
    def sum(values):
        values = tuple(v if isinstance(v, Value) else Value(v) for v in values)
        return Value._node(math.fsum(v.data for v in values), values, "sum", _bw_sum)

    @staticmethod
    def neuron(w, b, x, activation=None):
        """act(w . x + b) as one node; activation is None, 'tanh' or 'relu'."""
        x = [xi if isinstance(xi, Value) else Value(xi) for xi in x]
        n = len(w)
        z = b.data
        for wi, xi in zip(w, x):
            z += wi.data * xi.data
        if activation is None:
            out, dact = z, 1.0
        elif activation == "tanh":
            out = math.tanh(z)
            dact = 1.0 - out * out
        elif activation == "relu":
            out, dact = (z, 1.0) if z > 0 else (0.0, 0.0)
        else:
            raise ValueError(f"unknown activation {activation!r}")
        return Value._node(out, (*w, b, *x), activation or "linear", _bw_dot, (n, dact))

    # -- backpropagation ----------------------------------------------------
    def _topo(self):
        """Nodes reachable from self, children before parents, without recursion.

        A node is pushed once to be expanded and met again after all its
        children: then it is placed.
        """
        topo, seen, done = [], set(), set()
        stack = [self]
        while stack:
            node = stack.pop()
            if node in done:
                continue
            if node in seen:  # second visit: its children are all placed
                done.add(node)
                topo.append(node)
                continue
            seen.add(node)
            stack.append(node)
            stack.extend(c for c in node._prev if c not in seen)
        return topo

    def backward(self):
        """Add d(self)/d(leaf) to every leaf's grad, as PyTorch does."""
        topo = self._topo()
        for v in topo:
            if v._prev:
                v.grad = 0.0
        self.grad += 1.0  # interior roots were just reset; a leaf root accumulates
        for v in reversed(topo):
            v._bw(v)

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
