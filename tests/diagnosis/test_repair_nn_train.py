"""Does each repair of the neural net, the loss and the loop edit a student's own code the way its mistake
implies, keeping their names and comments (`self.weights`, `self.units`, `sizes`, `preds`, `step_size`)?"""
from __future__ import annotations

import pytest

from autograder.diagnosis.repair import nn, nn_params, train, train_loop
from repairing import lines, repair

NN = '''
import random
from micrograd.engine import Value

class Module:
    def zero_grad(self):
        # clear old grads
        for q in self.parameters():
            q.grad = 0.0

    def parameters(self):
        return []

class Neuron(Module):
    def __init__(self, nin, nonlin=True, activation='tanh'):
        self.weights = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.bias = Value(0.0)
        self.use_act = nonlin
        self.kind = activation

    def __call__(self, x):
        # weighted sum first
        total = sum((w * xi for w, xi in zip(self.weights, x)), self.bias)
        if not self.use_act:
            return total
        return total.tanh() if self.kind == 'tanh' else total.relu()

    def parameters(self):
        return self.weights + [self.bias]

class Layer(Module):
    def __init__(self, nin, nout, **kw):
        self.units = [Neuron(nin, **kw) for _ in range(nout)]

    def __call__(self, x):
        # one output per unit
        outs = [u(x) for u in self.units]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for u in self.units for p in u.parameters()]

class MLP(Module):
    def __init__(self, nin, nouts, activation='tanh'):
        sizes = [nin] + list(nouts)
        # hidden layers, then a linear one
        self.layers = [Layer(sizes[j], sizes[j+1], nonlin=j != len(nouts) - 1, activation=activation) for j in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
'''

TRAIN = '''
def mse_loss(preds, ys):
    # mean squared error
    return sum((a - b)**2 for a, b in zip(preds, ys)) / len(preds)


def train(net, xs, ys, n_steps, step_size):
    history = []
    for _ in range(n_steps):
        # one step of descent
        net.zero_grad()
        loss = mse_loss([net(x) for x in xs], ys)
        loss.backward()
        for q in net.parameters():
            q.data -= step_size * q.grad
        history.append(loss.data)
    return history
'''


def nn_(old: str, new: str) -> tuple[str, str]:
    assert NN.count(old) == 1, old
    return "nn.py", NN.replace(old, new)


def train_(old: str, new: str) -> tuple[str, str]:
    assert TRAIN.count(old) == 1, old
    return "train.py", TRAIN.replace(old, new)


LINEAR = "nonlin=j != len(nouts) - 1, "
CASES = [
    # (repair, task, (file, source), the lines it must write)
    (nn.AddBias, "neuron", nn_(", self.bias)", ")"), ["total = sum((w * xi for w, xi in zip(self.weights, x)), self.bias)"]),
    (nn.ApplyConfiguredActivation, "neuron", nn_("        if not self.use_act:\n            return total\n", ""),
     ["return getattr(total, self.kind)() if self.use_act else total"]),
    (nn.ReturnValueOfOne, "layer", nn_("return outs[0] if len(outs) == 1 else outs", "return outs"),
     ["return outs[0] if len(outs) == 1 else outs"]),
    (nn.ReturnValueOfOne, "layer", nn_("        outs = [u(x) for u in self.units]\n        return outs[0] if len(outs) == 1 "
                                       "else outs", "        return [u(x) for u in self.units]"),
     ["# one output per unit\nout = [u(x) for u in self.units]\nreturn out[0] if len(out) == 1 else out"]),
    (nn.ReturnAfterLoop, "layer", nn_("        outs = [u(x) for u in self.units]\n        return",
                                      "        outs = []\n        for u in self.units:\n            outs.append(u(x))\n"
                                      "            return"),
     ["outs.append(u(x))\nreturn outs[0] if len(outs) == 1 else outs"]),
    (nn.LastLayerLinear, "mlp", nn_(LINEAR, ""), [f"Layer(sizes[j], sizes[j+1], {LINEAR}activation=activation)"]),
    (nn.FanInFromPrevious, "mlp", nn_("Layer(sizes[j], ", "Layer(nin, "), ["Layer(sizes[j], sizes[j+1], "]),
    (nn.FeedEveryLayer, "mlp", nn_("for layer in self.layers:", "for layer in self.layers[1:]:"),
     ["for layer in self.layers:"]),
    (nn.EveryLayer, "mlp", nn_("range(len(nouts))]", "range(len(nouts) - 1)]"), ["for j in range(len(nouts))]"]),
    (nn_params.ListBias, "parameters", nn_("return self.weights + [self.bias]", "return self.weights"),
     ["return self.weights + [self.bias]"]),
    (nn_params.ParametersInOrder, "parameters", nn_("return self.weights + [self.bias]",
                                                       "return [self.bias] + self.weights"),
     ["return self.weights + [self.bias]"]),
    (nn_params.EveryNeuronsParameters, "parameters",
     nn_("return [p for u in self.units for p in u.parameters()]", "return self.units[0].parameters()"),
     ["return [p for n in self.units for p in n.parameters()]"]),
    (nn_params.OwnValues, "parameters", nn_("return self.weights + [self.bias]",
                                               "return [Value(w.data) for w in self.weights] + [Value(self.bias.data)]"),
     ["return [w for w in self.weights] + [self.bias]"]),
    (nn_params.AssignZeroGrad, "zero_grad", nn_("q.grad = 0.0", "q.grad == 0.0"), ["q.grad = 0.0"]),
    (nn_params.ResetGradNotData, "zero_grad", nn_("q.grad = 0.0", "q.data = 0.0"), ["q.grad = 0.0"]),
    (nn_params.ResetEveryParameter, "zero_grad",
     nn_("        for q in self.parameters():\n            q.grad = 0.0\n",
         "        ps = self.parameters()\n        ps[0].grad = 0.0\n"), ["for p in ps:\np.grad = 0.0"]),
    (train.DivideByCount, "mse_loss", train_(" / len(preds)", ""),
     ["return sum((a - b)**2 for a, b in zip(preds, ys)) / len(preds)"]),
    (train.SquareEachError, "mse_loss", train_("(a - b)**2", "(a - b)"),
     ["return sum((a - b)**2 for a, b in zip(preds, ys)) / len(preds)"]),
    (train.NoSquareRoot, "mse_loss", train_("(a - b)**2", "abs(a - b)"),
     ["return sum((a - b)**2 for a, b in zip(preds, ys)) / len(preds)"]),
    (train.AverageEveryPoint, "mse_loss", train_("sum((a - b)**2 for a, b in zip(preds, ys)) / len(preds)",
                                                 "(preds[0] - ys[0])**2"),
     ["return sum((p - t)**2 for p, t in zip(preds, ys)) / len(preds)"]),
    (train.ZeroGradFirst, "train", train_("        net.zero_grad()\n", ""), ["# one step of descent\nnet.zero_grad()"]),
    (train.DescendGradient, "train", train_("q.data -= step_size", "q.data += step_size"),
     ["q.data -= step_size * q.grad"]),
    (train.UseLearningRate, "train", train_("q.data -= step_size * q.grad", "q.data -= 0.05 * q.grad"),
     ["q.data -= step_size * q.grad"]),
    (train.UseGradient, "train", train_("step_size * q.grad", "step_size * q.data"), ["q.data -= step_size * q.grad"]),
    (train_loop.RecordStepsLoss, "train",
     train_("history.append(loss.data)", "history.append(mse_loss([net(x) for x in xs], ys).data)"),
     ["history.append(loss.data)"]),
    (train_loop.EveryStep, "train", train_("range(n_steps)", "range(n_steps - 1)"), ["for _ in range(n_steps):"]),
    (train_loop.RecordOncePerStep, "train", train_("        history.append", "            history.append"),
     ["q.data -= step_size * q.grad\nhistory.append(loss.data)\nreturn history"]),
]


def _mistake(repair_class, task) -> str:
    return next(m for m, found in {**nn.REPAIRS, **train.REPAIRS}[task].items() if repair_class in found)


@pytest.mark.parametrize("repair_class, task, file_source, written", CASES, ids=lambda x: getattr(x, "__name__", ""))
def test_does_the_repair_write_the_fix_in_the_students_own_names_and_keep_their_comments(
        tmp_path, repair_class, task, file_source, written):
    file, source = file_source
    texts, edits = repair(tmp_path, task, _mistake(repair_class, task), {file: source})
    assert edits, "the repair found no spot"
    after = "\n".join(lines(texts[file]))
    assert all(line in after for line in written), texts[file]
    kept = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
    assert kept and all(line in after for line in kept)


def test_is_every_repair_of_the_net_and_the_loop_tested_here():
    listed = {r for table in (nn.REPAIRS, train.REPAIRS) for by_id in table.values() for found in by_id.values()
              for r in found}
    assert listed <= {c[0] for c in CASES}


def test_does_the_loop_keep_zero_grad_once_when_it_was_after_backward(tmp_path):
    file, source = train_("        net.zero_grad()\n", "")
    source = source.replace("        loss.backward()\n", "        loss.backward()\n        net.zero_grad()\n")
    texts, edits = repair(tmp_path, "train", "zero_grad_after_backward", {file: source})
    assert lines(texts[file]) == lines(TRAIN.lstrip("\n"))
