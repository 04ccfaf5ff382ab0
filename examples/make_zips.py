"""Write the two generated sample submissions: barbara_liskov.zip and claude_shannon.ipynb.

    .venv/bin/python examples/make_zips.py

Both files are committed; run this again only to change them. The output is
reproducible (fixed timestamps, fixed order), so a re-run without changes
leaves git clean.

- barbara_liskov.zip: a micrograd/ folder zipped by macOS Finder (with its
  __MACOSX/ and .DS_Store litter), from solutions/ without the solution markers
  and with one bug: relu's derivative at exactly 0 taken as 1 (`>= 0`).
- claude_shannon.ipynb: a Colab-style notebook holding the whole assignment in
  code cells, with a `!pip install micrograd` cell, `%matplotlib inline`, demo
  cells and their saved outputs, and a cell checking against PyTorch as the lecture
  does (not run by the autograder: noted). Correct.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

HERE = Path(__file__).resolve().parent
SUBMISSIONS = HERE / "submissions"
SOLUTIONS = HERE.parent / "solutions" / "micrograd"
STAMP = (2024, 3, 14, 23, 52, 8)  # handed in five minutes before the deadline

RELU_OK = "            self.grad += (out.data > 0) * out.grad\n"
RELU_BUG = "            self.grad += (self.data >= 0) * out.grad  # slope 1 for x >= 0\n"


def student_copy(name: str) -> str:
    """A solutions/ file as a student would hand it in: no solution markers."""
    text = (SOLUTIONS / name).read_text(encoding="utf-8")
    return re.sub(r"^[ \t]*# (BEGIN|END) SOLUTION.*\n", "", text, flags=re.MULTILINE)


def make_zip(path: Path) -> None:
    engine = student_copy("engine.py")
    assert engine.count(RELU_OK) == 1
    files = {
        "micrograd/__init__.py": "",
        "micrograd/engine.py": engine.replace(RELU_OK, RELU_BUG),
        "micrograd/nn.py": student_copy("nn.py"),
        "micrograd/train.py": student_copy("train.py"),
    }
    # what Finder's "Compress" adds: AppleDouble resource forks and a .DS_Store
    apple_double = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02" + b"\x00" * 26
    litter = {
        "micrograd/.DS_Store": b"\x00\x00\x00\x01Bud1" + b"\x00" * 24,
        "__MACOSX/._micrograd": apple_double,
        "__MACOSX/micrograd/._engine.py": apple_double,
        "__MACOSX/micrograd/._nn.py": apple_double,
    }
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in [*files.items(), *litter.items()]:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data.encode("utf-8") if isinstance(data, str) else data)


ENGINE_CELL = '''\
class Value:
    """A scalar with a gradient (following Karpathy's lecture)."""

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')
        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        return out

    def __rmul__(self, other):  # other * self
        return self * other

    def __radd__(self, other):  # other + self
        return self + other

    def __truediv__(self, other):  # self / other
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1

    def __neg__(self):  # -self
        return self * -1

    def __sub__(self, other):  # self - other
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def tanh(self):
        x = self.data
        t = math.tanh(x)
        out = Value(t, (self, ), 'tanh')
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        return out

    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self, ), 'exp')
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()
'''

CHECK_CELL = '''\
# sanity check against the example from the lecture
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
f = Value(-2.0, label='f')
e = a*b; e.label = 'e'
d = e + c; d.label = 'd'
L = d * f; L.label = 'L'
L.backward()
print(L.data, a.grad, b.grad, c.grad, f.grad)
'''

TORCH_CELL = '''\
# the same check in PyTorch, as in the lecture
import torch
a = torch.tensor([2.0], dtype=torch.double, requires_grad=True)
b = torch.tensor([-3.0], dtype=torch.double, requires_grad=True)
L = (a * b + 10.0) * -2.0
L.backward()
print(L.item(), a.grad.item(), b.grad.item())
'''

NN_CELL = '''\
class Module:

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):

    def __init__(self, nin, nonlin=True, activation='tanh'):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1,1))
        self.nonlin = nonlin
        self.activation = activation

    def __call__(self, x):
        # w * x + b
        act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
        if not self.nonlin:
            return act
        return act.tanh() if self.activation == 'tanh' else act.relu()

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP(Module):

    def __init__(self, nin, nouts, activation='tanh'):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i+1], nonlin=i != len(nouts)-1, activation=activation)
                       for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
'''

TRAIN_CELL = '''\
def mse_loss(predictions, targets):
    return sum((yout - ygt)**2 for ygt, yout in zip(targets, predictions)) / len(predictions)


def train(model, xs, ys, steps, lr):
    losses = []
    for k in range(steps):
        # forward pass
        ypred = [model(x) for x in xs]
        loss = mse_loss(ypred, ys)
        # backward pass
        model.zero_grad()
        loss.backward()
        # update
        for p in model.parameters():
            p.data += -lr * p.grad
        losses.append(loss.data)
    return losses
'''

DEMO_CELL = '''\
xs = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
]
ys = [1.0, -1.0, -1.0, 1.0]  # desired targets
n = MLP(3, [4, 4, 1])
losses = train(n, xs, ys, 20, 0.05)
print(losses[0], losses[-1])
plt.plot(losses)
'''


def make_notebook(path: Path) -> None:
    def code(source: str, count: int, *outputs) -> nbformat.NotebookNode:
        return new_code_cell(source, execution_count=count, outputs=list(outputs))

    nb = new_notebook(
        cells=[
            new_markdown_cell("# Homework 3: backpropagation from scratch\n\nClaude Shannon"),
            code("!pip install micrograd", 1, new_output(
                "stream", name="stdout",
                text="Requirement already satisfied: micrograd in /usr/local/lib/python3.10/dist-packages (0.1.0)\n")),
            code("%matplotlib inline\nimport math\nimport random\nimport matplotlib.pyplot as plt", 2),
            new_markdown_cell("## Part 1: the engine\n\nEach operation stores a `_backward` closure "
                              "applying the chain rule for that one operation."),
            code(ENGINE_CELL, 3),
            code(CHECK_CELL, 4, new_output("stream", name="stdout", text="-8.0 6.0 -4.0 -2.0 4.0\n")),
            code(TORCH_CELL, 5, new_output("stream", name="stdout", text="-8.0 6.0 -4.0\n")),
            code("Value?", 6),
            new_markdown_cell("## Part 2: a small neural net"),
            code(NN_CELL, 7),
            code(TRAIN_CELL, 8),
            code(DEMO_CELL, 9,
                 new_output("stream", name="stdout", text="1.3121868429374926 0.0271843520983113\n"),
                 new_output("execute_result", execution_count=9,
                            data={"text/plain": "[<matplotlib.lines.Line2D at 0x7f3b2c1d5e10>]"})),
            new_markdown_cell("The loss goes down, so I think backprop works!"),
        ],
        metadata={
            "colab": {"provenance": []},
            "kernelspec": {"display_name": "Python 3", "name": "python3"},
            "language_info": {"name": "python"},
        },
    )
    # fixed cell ids, so that a re-run writes the same file
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"
    nbformat.validate(nb)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")


def main() -> None:
    make_zip(SUBMISSIONS / "barbara_liskov.zip")
    make_notebook(SUBMISSIONS / "claude_shannon.ipynb")
    for name in ("barbara_liskov.zip", "claude_shannon.ipynb"):
        print(f"wrote {(SUBMISSIONS / name).relative_to(HERE.parent)} ({(SUBMISSIONS / name).stat().st_size} bytes)")


if __name__ == "__main__":
    main()
