"""Random cases of the neural-net and training tasks: one generator per task.

A generator takes the task's random stream and the configured activation and
returns (program, params, title).
"""
from __future__ import annotations

import random

from autograder.cases.common import away, case, fmt, r3
from autograder.cases.model import Case

PER_TASK = {"public": 2, "hidden": 4}


def _nums(rng, n, lo=-1.0, hi=1.0):
    return [r3(rng.uniform(lo, hi)) for _ in range(n)]


def neuron(rng: random.Random, activation: str):
    nin = rng.randint(1, 4)
    nonlin, x_values = rng.random() < 0.7, rng.random() < 0.4
    w, x = _nums(rng, nin), _nums(rng, nin, -2.0, 2.0)
    while True:  # keep w . x + b away from relu's kink
        b = r3(rng.uniform(-1, 1))
        if abs(sum(wi * xi for wi, xi in zip(w, x)) + b) >= 0.05:
            break
    p = {"nin": nin, "w": w, "b": b, "x": x, "x_values": x_values, "nonlin": nonlin, "activation": activation}
    kind = activation if nonlin else "linear"
    return "nn.neuron", p, f"a {kind} Neuron({nin}) on {'Value' if x_values else 'number'} inputs"


def layer(rng: random.Random, activation: str):
    nin, nout = rng.randint(1, 4), rng.choice((1, 2, 3, 4, 5))
    p = {"nin": nin, "nout": nout, "x": _nums(rng, nin, -2.0, 2.0), "x_values": rng.random() < 0.4}
    return "nn.layer", p, f"Layer({nin}, {nout}) on x = ({', '.join(fmt(v) for v in p['x'])})"


def mlp(rng: random.Random, activation: str):
    nin, nouts = rng.randint(1, 4), [rng.randint(1, 5) for _ in range(rng.randint(1, 4))]
    return "nn.mlp", {"nin": nin, "nouts": nouts, "activation": activation}, f"MLP({nin}, {nouts})"


def mlp_call(rng: random.Random, activation: str):
    nin, nouts = rng.randint(1, 4), [rng.randint(1, 4) for _ in range(rng.randint(2, 4))]
    x = _nums(rng, nin)
    return ("nn.mlp_call", {"nin": nin, "nouts": nouts, "x": x, "activation": activation},
            f"MLP({nin}, {nouts}) called on x = ({', '.join(fmt(v) for v in x)}), its layers stand-ins")


def parameters(rng: random.Random, activation: str):
    kind, nin = rng.choice(("neuron", "layer", "mlp")), rng.randint(1, 4)
    p: dict = {"kind": kind, "nin": nin}
    if kind == "neuron":
        return "nn.parameters", p, f"Neuron({nin}).parameters()"
    if kind == "layer":
        p["nout"] = rng.randint(1, 4)
        return "nn.parameters", p, f"Layer({nin}, {p['nout']}).parameters()"
    p["nouts"] = [rng.randint(1, 4) for _ in range(rng.randint(2, 3))]
    return "nn.parameters", p, f"MLP({nin}, {p['nouts']}).parameters()"


def zero_grad(rng: random.Random, activation: str):
    n = rng.randint(1, 6)
    p = {"data": _nums(rng, n, -3.0, 3.0), "grads": [away(rng, 0.1, 5.0) for _ in range(n)]}
    return "nn.zero_grad", p, f"zero_grad() on {n} parameters with nonzero grads"


def mse_loss(rng: random.Random, activation: str):
    n = rng.randint(1, 6)
    p = {"predictions": _nums(rng, n, -3.0, 3.0), "targets": _nums(rng, n, -3.0, 3.0),
         "targets_values": rng.random() < 0.4}
    return "train.mse", p, f"mse_loss of {n} predictions, targets as {'Values' if p['targets_values'] else 'numbers'}"


def train(rng: random.Random, activation: str):
    nin, n = rng.randint(1, 3), rng.randint(2, 5)
    true_w, true_b = _nums(rng, nin, -2.0, 2.0), r3(rng.uniform(-1, 1))
    xs = [_nums(rng, nin, -1.5, 1.5) for _ in range(n)]
    ys = [r3(sum(w * x for w, x in zip(true_w, xi)) + true_b + rng.uniform(-0.2, 0.2)) for xi in xs]
    p = {"w": _nums(rng, nin), "b": r3(rng.uniform(-0.5, 0.5)), "xs": xs, "ys": ys,
         "steps": rng.randint(3, 6), "lr": r3(rng.uniform(0.02, 0.1))}
    return "train.probe", p, f"{p['steps']} steps with lr = {fmt(p['lr'])} on {n} points with {nin} inputs"


GENERATORS = {"neuron": neuron, "layer": layer, "mlp": mlp, "parameters": parameters,
              "zero_grad": zero_grad, "mse_loss": mse_loss, "train": train}


def nn_cases(task: str, rng: random.Random, prefix: str, vis, activation: str) -> list[Case]:
    out = []
    for i in range(PER_TASK[vis]):
        make = mlp_call if task == "mlp" and i % 2 else GENERATORS[task]  # MLP: its structure, then its call
        program, p, title = make(rng, activation)
        out.append(case(task, f"{prefix}-{i + 1}", program, p, title=title, visibility=vis))
    return out
