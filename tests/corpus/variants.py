"""A corpus of single-bug variants of solutions/: realistic student mistakes, one each.

A Variant is declarative: in `file` of solutions/micrograd, the snippet `old`
(which occurs exactly once) is replaced by `new`. `task` is the task whose
points the bug must cost; `why` says what the student got wrong.

The corpus measures the grader's strength (every bug caught, on every run) and
its isolation (a bug costs points in its own task, ideally in no other):
tests/corpus/test_grader_strength.py asserts both, benchmarks/bench_corpus.py
prints the table.

This module also holds the small harness both of them use: build a variant
into a folder, grade a list of folders in parallel, summarise the results.
"""
from __future__ import annotations

import ast
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions" / "micrograd"
EXERCISES = REPO / "exercises" / "micrograd"
RUBRIC_FILE = REPO / "assignment.toml"
FILES = ("engine.py", "nn.py", "train.py")
RUNS = 3  # the corpus tests grade every variant this many times (tests/corpus/conftest.py)


@dataclass(frozen=True)
class Variant:
    id: str
    task: str
    file: str   # "engine.py" | "nn.py" | "train.py"
    old: str    # an exact snippet of solutions/micrograd/<file>, found exactly once
    new: str    # what the student wrote instead
    why: str    # the mistake, in words


V = Variant

# Snippets of the solution that several variants edit (indentation is exact).
_ADD = """            self.grad += out.grad
            other.grad += out.grad"""
_MUL = """            self.grad += other.data * out.grad
            other.grad += self.data * out.grad"""
_POW = "            self.grad += other * self.data**(other - 1) * out.grad"
_TANH = "            self.grad += (1 - t**2) * out.grad"
_EXP = "            self.grad += out.data * out.grad"
_RELU = "            self.grad += (out.data > 0) * out.grad"
_TOPO = """        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1
        for v in reversed(topo):
            v._backward()"""
_ACT = "        act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)"
_NONLIN = """        if not self.nonlin:
            return act
        return act.tanh() if self.activation == 'tanh' else act.relu()"""
_LAYER_CALL = """        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out"""
_MLP_LAYERS = ("        self.layers = [Layer(sz[i], sz[i+1], nonlin=i != len(nouts)-1, activation=activation) "
               "for i in range(len(nouts))]")
_MSE = "    return sum((p - t)**2 for p, t in zip(predictions, targets)) / len(predictions)"
_LOOP = """    for _ in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)"""


def _stack_topo(*, visited: bool = True, seed: bool = True, reverse: bool = True) -> str:
    """backward() with an explicit stack for the DFS (another student style), and one mistake."""
    return f"""        topo = []
        visited = set()
        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif {'v not in visited' if visited else 'True'}:
                visited.add(v)
                stack.append((v, True))
                for child in v._prev:
                    stack.append((child, False))

{'        self.grad = 1' if seed else '        pass  # (no seed)'}
        for v in {'reversed(topo)' if reverse else 'topo'}:
            v._backward()"""


VARIANTS: tuple[Variant, ...] = (
    # ---- add -------------------------------------------------------------------------
    V("add-assign", "add", "engine.py", _ADD,
      """            self.grad = out.grad
            other.grad = out.grad""",
      "= instead of +=: a + a gets 1 instead of 2, and a grad already there is overwritten"),
    V("add-no-upstream", "add", "engine.py", _ADD,
      """            self.grad += 1.0
            other.grad += 1.0""",
      "the local derivative 1 without the chain rule's out.grad"),
    V("add-only-self", "add", "engine.py", _ADD,
      "            self.grad += out.grad",
      "forgot the second input: other.grad never changes"),

    V("add-assign-other-only", "add", "engine.py", _ADD,
      """            self.grad += out.grad
            other.grad = out.grad""",
      "= for the second operand only: a + a still adds up, a grad already there is lost"),
    V("add-closure-not-set", "add", "engine.py",
      """            # END SOLUTION
        out._backward = _backward

        return out

    def __mul__(self, other):""",
      """            # END SOLUTION

        return out

    def __mul__(self, other):""",
      "the closure is written but never attached: out._backward stays the default that does nothing"),
    V("add-no-wrap", "add", "engine.py",
      """        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')""",
      """        out = Value(self.data + other.data, (self, other), '+')""",
      "the lecture's first __add__: a number is used as it comes, and has no .data"),
    V("add-no-radd", "add", "engine.py",
      """    def __radd__(self, other): # other + self
        return self + other
""", "",
      "no __radd__: 3 + a is a TypeError"),

    # ---- mul -------------------------------------------------------------------------
    V("mul-no-wrap", "mul", "engine.py",
      """        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')""",
      """        out = Value(self.data * other.data, (self, other), '*')""",
      "the lecture's first __mul__: a number is used as it comes, and has no .data"),
    V("mul-no-rmul", "mul", "engine.py",
      """    def __rmul__(self, other): # other * self
        return self * other
""", "",
      "no __rmul__: 3 * a is a TypeError"),
    V("mul-assign", "mul", "engine.py", _MUL,
      """            self.grad = other.data * out.grad
            other.grad = self.data * out.grad""",
      "= instead of +=: x * x gets x instead of 2x"),
    V("mul-no-upstream", "mul", "engine.py", _MUL,
      """            self.grad += other.data
            other.grad += self.data""",
      "the local derivatives without * out.grad"),
    V("mul-own-data", "mul", "engine.py", _MUL,
      """            self.grad += self.data * out.grad
            other.grad += other.data * out.grad""",
      "each input's gradient uses its own data instead of the other input's"),
    V("mul-closure-on-self", "mul", "engine.py",
      """            # END SOLUTION
        out._backward = _backward

        return out

    def __pow__(self, other):""",
      """            # END SOLUTION
        self._backward = _backward

        return out

    def __pow__(self, other):""",
      "the closure attached to the operand, not to out: out keeps the default, self loses its own"),
    V("mul-grad-for-data", "mul", "engine.py", _MUL,
      """            self.grad += other.grad * out.grad
            other.grad += self.grad * out.grad""",
      "other.grad written where other.data was meant"),

    V("mul-only-other", "mul", "engine.py", _MUL,
      "            other.grad += self.data * out.grad",
      "forgot the first input: self.grad never changes"),
    V("mul-assign-self-only", "mul", "engine.py", _MUL,
      """            self.grad = other.data * out.grad
            other.grad += self.data * out.grad""",
      "= for the first operand only: a grad self already held is lost"),

    # ---- pow -------------------------------------------------------------------------
    V("pow-assign", "pow", "engine.py", _POW,
      "            self.grad = other * self.data**(other - 1) * out.grad",
      "= instead of +=: a grad already there is overwritten"),
    V("pow-k-a-k", "pow", "engine.py", _POW,
      "            self.grad += other * self.data**other * out.grad",
      "derivative k * a**k: the exponent not lowered"),
    V("pow-km1-coefficient", "pow", "engine.py", _POW,
      "            self.grad += (other - 1) * self.data**(other - 1) * out.grad",
      "derivative (k-1) * a**(k-1): the coefficient lowered along with the exponent"),
    V("pow-missing-k", "pow", "engine.py", _POW,
      "            self.grad += self.data**(other - 1) * out.grad",
      "derivative a**(k-1): the factor k forgotten"),
    V("pow-no-upstream", "pow", "engine.py", _POW,
      "            self.grad += other * self.data**(other - 1)",
      "the local derivative without * out.grad"),
    V("pow-int-exponent", "pow", "engine.py", _POW,
      "            self.grad += int(other) * self.data**(int(other) - 1) * out.grad",
      "the exponent truncated to an int: right for a ** 3, wrong for a ** 0.5 and a ** -1.5"),
    V("pow-abs-base", "pow", "engine.py", _POW,
      "            self.grad += other * abs(self.data)**(other - 1) * out.grad",
      "abs() added to dodge complex results: wrong sign for a negative base and an even k"),

    V("pow-precedence", "pow", "engine.py", _POW,
      "            self.grad += other * self.data**other-1 * out.grad",
      "self.data**other-1 without parentheses: (a**k) - out.grad, not a**(k-1)"),

    # ---- tanh ------------------------------------------------------------------------
    V("tanh-assign", "tanh", "engine.py", _TANH,
      "            self.grad = (1 - t**2) * out.grad",
      "= instead of +=: a grad already there is overwritten"),
    V("tanh-uses-input", "tanh", "engine.py", _TANH,
      "            self.grad += (1 - self.data**2) * out.grad",
      "1 - a**2 with the input a instead of the output t = tanh(a)"),
    V("tanh-no-upstream", "tanh", "engine.py", _TANH,
      "            self.grad += 1 - t**2",
      "the local derivative without * out.grad"),
    V("tanh-no-square", "tanh", "engine.py", _TANH,
      "            self.grad += (1 - t) * out.grad",
      "1 - t instead of 1 - t**2"),

    V("tanh-precedence", "tanh", "engine.py", _TANH,
      "            self.grad += 1 - t**2 * out.grad",
      "1 - t**2 * out.grad without parentheses: only t**2 is scaled by out.grad"),

    # ---- exp -------------------------------------------------------------------------
    V("exp-closure-not-set", "exp", "engine.py",
      """            # END SOLUTION
        out._backward = _backward

        return out

    def relu(self):""",
      """            # END SOLUTION

        return out

    def relu(self):""",
      "the closure is written but never attached: out._backward stays the default that does nothing"),
    V("exp-assign", "exp", "engine.py", _EXP,
      "            self.grad = out.data * out.grad",
      "= instead of +=: a grad already there is overwritten"),
    V("exp-uses-input", "exp", "engine.py", _EXP,
      "            self.grad += self.data * out.grad",
      "the input a as the derivative instead of exp(a)"),
    V("exp-no-upstream", "exp", "engine.py", _EXP,
      "            self.grad += out.data",
      "the local derivative without * out.grad"),

    # ---- relu ------------------------------------------------------------------------
    V("relu-assign", "relu", "engine.py", _RELU,
      "            self.grad = (out.data > 0) * out.grad",
      "= instead of +=: a grad already there is overwritten"),
    V("relu-grad-one-at-zero", "relu", "engine.py", _RELU,
      "            self.grad += (self.data >= 0) * out.grad",
      ">= 0: the derivative at exactly 0 taken as 1 (PyTorch takes 0)"),
    V("relu-passes-negative", "relu", "engine.py", _RELU,
      "            self.grad += (out.data >= 0) * out.grad",
      "tests the clamped output with >= 0, which always holds: grad flows where the input was negative"),
    V("relu-no-upstream", "relu", "engine.py", _RELU,
      "            self.grad += (out.data > 0) * 1.0",
      "the local derivative without * out.grad"),
    V("relu-output-as-derivative", "relu", "engine.py", _RELU,
      "            self.grad += out.data * out.grad",
      "relu(a) used as its own derivative, as for exp"),

    V("relu-conditional-at-zero", "relu", "engine.py", _RELU,
      "            self.grad += (0 if self.data < 0 else 1) * out.grad",
      "a conditional that lets exactly 0 through: the derivative at 0 taken as 1"),

    # ---- backward --------------------------------------------------------------------
    V("backward-no-call", "backward", "engine.py",
      """        for v in reversed(topo):
            v._backward()""",
      """        for v in reversed(topo):
            v._backward""",
      "v._backward without the parentheses: the closures are looked up and never called"),
    V("backward-not-reversed", "backward", "engine.py",
      "        for v in reversed(topo):",
      "        for v in topo:",
      "closures called leaves first: the topological order not reversed"),
    V("backward-preorder", "backward", "engine.py",
      """                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)""",
      """                visited.add(v)
                topo.append(v)
                for child in v._prev:
                    build_topo(child)""",
      "pre-order DFS (a node listed before its children), so reversed() walks children first"),
    V("backward-preorder-forward", "backward", "engine.py", _TOPO,
      """        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                topo.append(v)
                for child in v._prev:
                    build_topo(child)
        build_topo(self)

        self.grad = 1
        for v in topo:  # the output comes first
            v._backward()""",
      "pre-order DFS walked from the output: wrong only where a node is reached along two paths"),
    V("backward-no-seed", "backward", "engine.py",
      "        self.grad = 1\n",
      "",
      "never seeds dL/dL = 1: every grad stays 0"),
    V("backward-seed-zero", "backward", "engine.py",
      "        self.grad = 1\n",
      "        self.grad = 0\n",
      "seeds the output's grad with 0"),
    V("backward-seed-accumulates", "backward", "engine.py",
      "        self.grad = 1\n",
      "        self.grad += 1\n",
      "seeds with += 1: a second backward() starts from 2"),
    V("backward-no-visited", "backward", "engine.py", _TOPO,
      """        topo = []
        def build_topo(v):
            for child in v._prev:
                build_topo(child)
            topo.append(v)
        build_topo(self)

        self.grad = 1
        for v in reversed(topo):
            v._backward()""",
      "no visited set: a node reached along two paths is listed, and back-propagated, twice"),
    V("backward-only-self", "backward", "engine.py",
      """        for v in reversed(topo):
            v._backward()""",
      "        self._backward()",
      "builds the order, then calls only the output's own _backward"),
    V("backward-naive-recursion", "backward", "engine.py", _TOPO,
      """        self.grad = 1
        def go(v):
            v._backward()
            for child in v._prev:
                go(child)
        go(self)""",
      "recursion without a topological order: a shared node passes its grad on before it is complete"),
    V("backward-visited-by-value", "backward", "engine.py",
      """            if v not in visited:
                visited.add(v)""",
      """            if v.data not in visited:
                visited.add(v.data)""",
      "marks numbers as visited, not nodes: a second node with the same value is skipped"),
    V("backward-resets-grads", "backward", "engine.py",
      """        self.grad = 1
        for v in reversed(topo):""",
      """        for v in topo:
            v.grad = 0  # start clean
        self.grad = 1
        for v in reversed(topo):""",
      "zeroes every grad in the graph first: grads no longer accumulate across backward() calls"),

    V("backward-stack-no-seed", "backward", "engine.py", _TOPO, _stack_topo(seed=False),
      "an explicit-stack DFS, and the output's grad never seeded"),
    V("backward-stack-no-visited", "backward", "engine.py", _TOPO, _stack_topo(visited=False),
      "an explicit-stack DFS without a visited set: every node once per path, each before its grad is complete"),
    V("backward-stack-not-reversed", "backward", "engine.py", _TOPO, _stack_topo(reverse=False),
      "an explicit-stack DFS walked leaves first"),

    # ---- neuron ----------------------------------------------------------------------
    V("neuron-no-bias", "neuron", "nn.py", _ACT,
      "        act = sum(wi*xi for wi,xi in zip(self.w, x))",
      "w . x without the bias"),
    V("neuron-always-nonlin", "neuron", "nn.py", _NONLIN,
      "        return act.tanh() if self.activation == 'tanh' else act.relu()",
      "the activation applied even when nonlin=False"),
    V("neuron-relu", "neuron", "nn.py", _NONLIN,
      """        if not self.nonlin:
            return act
        return act.relu()""",
      "relu hard-coded (as in karpathy's micrograd) instead of the configured tanh"),
    V("neuron-no-activation", "neuron", "nn.py", _NONLIN,
      "        return act",
      "forgets the activation: every neuron is linear"),
    V("neuron-nonlin-inverted", "neuron", "nn.py",
      "        if not self.nonlin:\n",
      "        if self.nonlin:\n",
      "the nonlin test inverted: linear where it should be nonlinear and the other way round"),

    V("neuron-relu-inline", "neuron", "nn.py", _NONLIN,
      "        return act.relu() if self.nonlin else act",
      "relu written in, whatever the configured activation"),

    # ---- layer -----------------------------------------------------------------------
    V("layer-list-for-one", "layer", "nn.py", _LAYER_CALL,
      "        return [n(x) for n in self.neurons]",
      "a layer of one neuron returns a list of one, not the Value"),
    V("layer-first-neuron-only", "layer", "nn.py", _LAYER_CALL,
      """        out = []
        for n in self.neurons:
            out.append(n(x))
            return out[0] if len(out) == 1 else out""",
      "return indented into the loop: only the first neuron is applied"),
    V("layer-unwrap-by-nin", "layer", "nn.py", _LAYER_CALL,
      """        out = [n(x) for n in self.neurons]
        return out[0] if len(x) == 1 else out""",
      "unwraps by the number of inputs instead of the number of neurons"),

    # ---- mlp -------------------------------------------------------------------------
    V("mlp-nonlin-every-layer", "mlp", "nn.py", _MLP_LAYERS,
      "        self.layers = [Layer(sz[i], sz[i+1], activation=activation) for i in range(len(nouts))]",
      "the last layer is given the activation too (nonlin on every layer)"),
    V("mlp-nonlin-no-layer", "mlp", "nn.py", _MLP_LAYERS,
      ("        self.layers = [Layer(sz[i], sz[i+1], nonlin=False, activation=activation) "
       "for i in range(len(nouts))]"),
      "no layer has an activation: the MLP is linear"),
    V("mlp-first-layer-linear", "mlp", "nn.py", _MLP_LAYERS,
      ("        self.layers = [Layer(sz[i], sz[i+1], nonlin=i != 0, activation=activation) "
       "for i in range(len(nouts))]"),
      "off by one: the first layer is the linear one, the last has the activation"),
    V("mlp-sizes-all-nin", "mlp", "nn.py", _MLP_LAYERS,
      ("        self.layers = [Layer(nin, sz[i+1], nonlin=i != len(nouts)-1, activation=activation) "
       "for i in range(len(nouts))]"),
      "every layer built with nin inputs instead of the previous layer's width"),
    V("mlp-missing-last-layer", "mlp", "nn.py", _MLP_LAYERS,
      ("        self.layers = [Layer(sz[i], sz[i+1], nonlin=i != len(nouts)-1, activation=activation) "
       "for i in range(len(nouts) - 1)]"),
      "range(len(nouts) - 1): the output layer is never built"),

    # ---- parameters ------------------------------------------------------------------
    V("params-no-bias", "parameters", "nn.py",
      "        return self.w + [self.b]",
      "        return self.w",
      "the neuron's bias left out of parameters()"),
    V("params-bias-first", "parameters", "nn.py",
      "        return self.w + [self.b]",
      "        return [self.b] + self.w",
      "bias before the weights"),
    V("params-layer-first-neuron", "parameters", "nn.py",
      "        return [p for n in self.neurons for p in n.parameters()]",
      "        return self.neurons[0].parameters()",
      "Layer.parameters() lists only the first neuron's parameters"),
    V("params-mlp-reversed", "parameters", "nn.py",
      "        return [p for layer in self.layers for p in layer.parameters()]",
      "        return [p for layer in reversed(self.layers) for p in layer.parameters()]",
      "MLP.parameters() walks the layers from the output back"),
    V("params-copies", "parameters", "nn.py",
      "        return self.w + [self.b]",
      "        return [Value(wi.data) for wi in self.w] + [Value(self.b.data)]",
      "returns fresh Values holding the numbers: setting or reading them misses the model's own"),

    # ---- zero_grad -------------------------------------------------------------------
    V("zero_grad-comparison", "zero_grad", "nn.py",
      "            p.grad = 0\n",
      "            p.grad == 0\n",
      "== instead of =: zero_grad does nothing"),
    V("zero_grad-data", "zero_grad", "nn.py",
      "            p.grad = 0\n",
      "            p.data = 0\n",
      "resets the data instead of the grad"),
    V("zero_grad-first-only", "zero_grad", "nn.py",
      """        for p in self.parameters():
            p.grad = 0""",
      """        params = self.parameters()
        if params:
            params[0].grad = 0""",
      "resets only the first parameter"),

    # ---- mse_loss --------------------------------------------------------------------
    V("mse-sum", "mse_loss", "train.py", _MSE,
      "    return sum((p - t)**2 for p, t in zip(predictions, targets))",
      "the sum of squared errors, not the mean"),
    V("mse-no-square", "mse_loss", "train.py", _MSE,
      "    return sum((p - t) for p, t in zip(predictions, targets)) / len(predictions)",
      "the mean of plain differences: errors of opposite signs cancel"),
    V("mse-abs-via-pow", "mse_loss", "train.py", _MSE,
      "    return sum(((p - t)**2)**0.5 for p, t in zip(predictions, targets)) / len(predictions)",
      "the mean absolute error (sqrt of the square), not the squared error"),
    V("mse-n-minus-1", "mse_loss", "train.py", _MSE,
      "    return sum((p - t)**2 for p, t in zip(predictions, targets)) / (len(predictions) - 1)",
      "divides by n - 1, as for a sample variance"),
    V("mse-first-point-only", "mse_loss", "train.py", _MSE,
      "    return (predictions[0] - targets[0])**2",
      "the squared error of the first point only"),

    V("mse-loop-sum", "mse_loss", "train.py", _MSE,
      """    total = 0
    for p, t in zip(predictions, targets):
        total = total + (p - t)**2
    return total""",
      "a loop that adds the squared errors up and returns the total, never divided by n"),

    # ---- train -----------------------------------------------------------------------
    V("train-no-zero-grad", "train", "train.py",
      "        model.zero_grad()\n",
      "",
      "no zero_grad: grads pile up from step to step"),
    V("train-zero-grad-after-backward", "train", "train.py",
      """        loss.backward()
        for p in model.parameters():""",
      """        loss.backward()
        model.zero_grad()
        for p in model.parameters():""",
      "zero_grad between backward and the update: the parameters never move"),
    V("train-wrong-sign", "train", "train.py",
      "            p.data -= lr * p.grad",
      "            p.data += lr * p.grad",
      "gradient ascent: the update's sign flipped"),
    V("train-lr-lecture-001", "train", "train.py",
      "            p.data -= lr * p.grad",
      "            p.data += -0.01 * p.grad",
      "the lecture's step size 0.01 written in, instead of lr"),
    V("train-ascent-spelled-out", "train", "train.py",
      "            p.data -= lr * p.grad",
      "            p.data = p.data + lr * p.grad",
      "p.data + lr * p.grad: a step up the gradient"),
    V("train-update-uses-data", "train", "train.py",
      "            p.data -= lr * p.grad",
      "            p.data -= lr * p.data",
      "the update uses p.data where p.grad was meant (weight decay, not descent)"),
    V("train-hardcoded-lr", "train", "train.py",
      "            p.data -= lr * p.grad",
      "            p.data -= 0.05 * p.grad",
      "a learning rate copied from the lecture instead of lr"),
    V("train-loss-after-update", "train", "train.py",
      "        losses.append(loss.data)",
      "        losses.append(mse_loss([model(x) for x in xs], ys).data)",
      "records the loss after the update instead of the step's own loss"),
    V("train-returns-values", "train", "train.py",
      "        losses.append(loss.data)",
      "        losses.append(loss)",
      "returns the loss Values instead of floats"),
    V("train-steps-minus-1", "train", "train.py",
      "    for _ in range(steps):",
      "    for _ in range(steps - 1):",
      "off by one: steps - 1 steps"),
    V("train-append-in-update-loop", "train", "train.py",
      """        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)""",
      """        for p in model.parameters():
            p.data -= lr * p.grad
            losses.append(loss.data)""",
      "losses.append indented into the update loop: one loss per parameter"),
)


# The classic mistake each variant must be named as (autograder/diagnosis/catalogue.py), or None
# where no id fits (two mistakes at once, or a result the kit doesn't model): the diagnosis test
# asks for >= 90% of the variants with a design-listed id named right, and no wrong name anywhere.
NAMED: dict[str, str | None] = {
    "add-assign": "overwrites_grad", "add-no-upstream": "missing_upstream_grad", "add-only-self": "one_operand_only",
    "add-assign-other-only": "overwrites_grad", "add-no-wrap": "number_not_wrapped",
    "add-closure-not-set": "closure_does_nothing", "exp-closure-not-set": "closure_does_nothing",
    "add-no-radd": "reflected_op_missing", "mul-no-wrap": "number_not_wrapped", "mul-no-rmul": "reflected_op_missing",
    "mul-assign": "overwrites_grad", "mul-no-upstream": "missing_upstream_grad", "mul-own-data": "swapped_operands",
    "mul-grad-for-data": "grad_for_data", "mul-closure-on-self": "closure_on_operand",
    "mul-only-other": "one_operand_only", "mul-assign-self-only": "overwrites_grad",
    "pow-assign": "overwrites_grad", "pow-k-a-k": "wrong_local_derivative",
    "pow-km1-coefficient": "wrong_local_derivative", "pow-missing-k": "wrong_local_derivative",
    "pow-no-upstream": "missing_upstream_grad", "pow-int-exponent": "wrong_local_derivative",
    "pow-abs-base": "wrong_local_derivative", "pow-precedence": "operator_precedence",
    "tanh-assign": "overwrites_grad", "tanh-uses-input": "derivative_at_input",
    "tanh-no-upstream": "missing_upstream_grad", "tanh-no-square": "wrong_local_derivative",
    "tanh-precedence": "operator_precedence",
    "exp-assign": "overwrites_grad", "exp-uses-input": "derivative_at_input", "exp-no-upstream": "missing_upstream_grad",
    "relu-assign": "overwrites_grad", "relu-grad-one-at-zero": "relu_gradient_at_zero",
    "relu-passes-negative": "wrong_local_derivative", "relu-no-upstream": "missing_upstream_grad",
    "relu-output-as-derivative": "wrong_local_derivative", "relu-conditional-at-zero": "relu_gradient_at_zero",
    "backward-not-reversed": "topo_not_reversed", "backward-preorder": "topo_wrong_order",
    "backward-preorder-forward": "topo_wrong_order", "backward-no-seed": "grad_not_seeded",
    "backward-seed-zero": "grad_not_seeded", "backward-seed-accumulates": "seed_accumulates",
    "backward-no-visited": "nodes_visited_twice", "backward-only-self": "backward_only_root",
    "backward-naive-recursion": "no_topological_order", "backward-visited-by-value": "visited_by_value",
    "backward-resets-grads": "backward_resets_grads", "backward-no-call": "closures_not_called",
    "backward-stack-no-seed": "grad_not_seeded",
    # walked once per path, before the grads are complete: the same calls as a recursion with no order
    "backward-stack-no-visited": "no_topological_order",
    # its grads fit three wrong walks, and its order of calls (a stack's) none of the kit's: nothing named
    "backward-stack-not-reversed": None,
    "neuron-no-bias": "bias_missing", "neuron-always-nonlin": "wrong_activation", "neuron-relu": "wrong_activation",
    "neuron-no-activation": "wrong_activation", "neuron-nonlin-inverted": "wrong_activation",
    "neuron-relu-inline": "wrong_activation",
    "layer-list-for-one": "layer_list_for_one", "layer-first-neuron-only": "layer_first_neuron_only",
    "layer-unwrap-by-nin": "layer_unwrap_by_inputs",
    "mlp-nonlin-every-layer": "wrong_activation", "mlp-nonlin-no-layer": "wrong_activation",
    "mlp-first-layer-linear": "wrong_activation", "mlp-sizes-all-nin": "mlp_layer_sizes",
    "mlp-missing-last-layer": "mlp_missing_layer",
    "params-no-bias": "bias_missing", "params-bias-first": "parameter_order",
    "params-layer-first-neuron": "parameters_incomplete", "params-mlp-reversed": "parameter_order",
    "params-copies": "parameters_copies",
    "zero_grad-comparison": "zero_grad_missing", "zero_grad-data": "zero_grad_resets_data",
    "zero_grad-first-only": "zero_grad_first_only",
    "mse-sum": "mse_not_mean", "mse-no-square": "mse_not_squared", "mse-abs-via-pow": "mse_absolute",
    "mse-n-minus-1": "mse_not_mean", "mse-first-point-only": "mse_first_point_only", "mse-loop-sum": "mse_not_mean",
    "train-no-zero-grad": "zero_grad_missing", "train-zero-grad-after-backward": "zero_grad_after_backward",
    "train-wrong-sign": "update_sign", "train-ascent-spelled-out": "update_sign",
    "train-update-uses-data": "update_uses_data", "train-hardcoded-lr": "learning_rate_ignored",
    "train-lr-lecture-001": "learning_rate_ignored", "train-loss-after-update": "loss_after_update",
    "train-returns-values": None,  # Values where floats were asked: the message says so, no mistake model needed
    "train-steps-minus-1": "steps_off_by_one", "train-append-in-update-loop": "loss_per_parameter",
}


# ---- the harness -------------------------------------------------------------------------

def by_id() -> dict[str, Variant]:
    return {v.id: v for v in VARIANTS}


def apply(variant: Variant, source: str) -> str:
    """source with variant.old replaced by variant.new; old must occur exactly once."""
    count = source.count(variant.old)
    assert count == 1, f"{variant.id}: the snippet occurs {count} times in {variant.file}, not once"
    return source.replace(variant.old, variant.new)


def variant_source(variant: Variant) -> str:
    """The edited file's text; it must be a valid Python file different from the solution."""
    original = (SOLUTIONS / variant.file).read_text(encoding="utf-8")
    edited = apply(variant, original)
    assert edited != original, f"{variant.id}: the edit changes nothing"
    ast.parse(edited, filename=f"{variant.id}/{variant.file}")
    return edited


def build(variant: Variant | None, dest: Path) -> Path:
    """dest/micrograd: a copy of solutions/micrograd with the variant's edit (None: unedited)."""
    package = dest / "micrograd"
    shutil.copytree(SOLUTIONS, package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if variant is not None:
        (package / variant.file).write_text(variant_source(variant), encoding="utf-8")
    return dest


@dataclass(frozen=True)
class Graded:
    """What the corpus keeps from one Report: plain data, so it crosses processes."""
    name: str
    run: int
    error: str | None
    scores: tuple[tuple[str, float, float, str], ...]     # (task, score, max_score, status)
    lost: dict                                            # task -> ((case id, status, message), ...)
    seconds: float
    diagnosis: dict = None                                # task -> (mistake id, ...), for tasks with one
    hints: dict = None                                    # task -> the hints its failing public cases show
    steps: dict = None                                    # task -> its next step's text (report/next_step.py), failing tasks
    proofs: dict = None                                   # task -> ((mistake id, proven, fix), ...)

    @property
    def named(self) -> tuple[str, ...]:
        """Every mistake named, task by task in the report's order."""
        return tuple(m for ids in (self.diagnosis or {}).values() for m in ids)

    @property
    def hit(self) -> frozenset[str]:
        return frozenset(t for t, score, top, _ in self.scores if score < top)

    @property
    def score_key(self) -> tuple:
        return tuple((t, s) for t, s, _, _ in self.scores)


def _grade_one(job: tuple[str, int, str, str]) -> Graded:
    import time

    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path
    from autograder.report.next_step import next_step

    name, run, path, cache = job
    started = time.monotonic()
    report = grade_path(Path(path), rubric=load_rubric(RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    lost = {
        t.id: tuple((c.id, c.status, c.message) for c in t.cases if c.status != "passed")
        for t in report.tasks if t.score < t.max_score
    }
    return Graded(name, run, report.error,
                  tuple((t.id, t.score, t.max_score, t.status) for t in report.tasks),
                  lost, time.monotonic() - started,
                  {t.id: tuple(d.id for d in t.diagnosis) for t in report.tasks if t.diagnosis},
                  {t.id: tuple(line for c in t.cases for line in c.details if line.startswith("hint: "))
                   for t in report.tasks if t.score < t.max_score},
                  {t.id: step.text() for t in report.tasks if (step := next_step(t, report)) is not None},
                  {t.id: tuple((d.id, d.proven, d.fix) for d in t.diagnosis) for t in report.tasks if t.diagnosis})


def warm_goldens(cache: Path) -> None:
    """Compute the goldens once, in this process, before the workers read them."""
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import select_cases

    rubric = load_rubric(RUBRIC_FILE)
    GoldenStore(cache_dir=cache).goldens(select_cases(rubric, include_hidden=True),
                                         activation=rubric.activation)


def grade_corpus(work: Path, *, runs: int = 3, workers: int = 2,
                 variants: tuple[Variant, ...] = VARIANTS) -> dict[str, list[Graded]]:
    """Build every variant under work/ and grade each `runs` times; name -> [Graded per run]."""
    cache = work / "goldens"
    warm_goldens(cache)
    paths = {v.id: build(v, work / "variants" / v.id) for v in variants}
    jobs = [(name, run, str(path), str(cache)) for run in range(runs) for name, path in paths.items()]
    results: dict[str, list[Graded]] = {name: [] for name in paths}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for graded in pool.map(_grade_one, jobs):
            results[graded.name].append(graded)
    return results


def hits(results: dict[str, list[Graded]]) -> dict[str, frozenset[str]]:
    """Per variant, the tasks that lost points (on the first run)."""
    return {name: runs[0].hit for name, runs in results.items()}


def average_hits(results: dict[str, list[Graded]]) -> float:
    per = hits(results)
    return sum(len(h) for h in per.values()) / len(per)


def table(results: dict[str, list[Graded]]) -> str:
    """A plain-text table: variant, its task, tasks hit, and the multi-task variants with their cases."""
    known = by_id()
    rows = [("variant", "task", "caught", "tasks hit (points lost)")]
    for name, runs in results.items():
        v, first = known[name], runs[0]
        lost = {t: top - s for t, s, top, _ in first.scores if s < top}
        rows.append((name, v.task, "yes" if v.task in first.hit else "NO",
                     ", ".join(f"{t} (-{lost[t]:g})" for t in lost) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}" for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.append("")
    lines.append(f"variants: {len(results)}   average tasks hit per variant: {average_hits(results):.3f}")
    multi = [(name, runs[0]) for name, runs in results.items() if len(runs[0].hit) > 1]
    lines.append(f"variants hitting more than one task: {len(multi)}")
    for name, first in multi:
        own = known[name].task
        lines.append(f"  {name} ({own}): also {', '.join(sorted(first.hit - {own}))}")
        for task in sorted(first.hit - {own}):
            for case_id, status, message in first.lost.get(task, ())[:4]:
                lines.append(f"      {case_id} [{status}] {message[:110]}")
            more = len(first.lost.get(task, ())) - 4
            if more > 0:
                lines.append(f"      ... and {more} more case(s) of {task}")
    return "\n".join(lines)
