"""The classic mistakes as models: the lecture's engine with one piece written wrong.

A Model names its mistake (an id of autograder/diagnosis/catalogue.py) and the task it
belongs to; `api()` is the exercise API of an engine that makes exactly that mistake. A
mistake may have several models (a topological order can be wrong in more than one way):
each is one `variant`. What a model observes on a case is its prediction; the diagnosis
names a mistake when one of its models predicts every observation of a failing task.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable

from reference.mistakes import engine, nn, train as loop
from reference.mistakes.engine import Value, local_derivatives, topological


@dataclass(frozen=True)
class Model:
    task: str
    id: str              # the mistake, as the catalogue names it
    variant: str         # "" when the mistake has one model
    api: Callable[[], SimpleNamespace]

    @property
    def key(self) -> str:
        return f"{self.id}.{self.variant}" if self.variant else self.id


def build_api(value=Value, neuron=nn.Neuron, layer=nn.Layer, mlp=nn.MLP, module=nn.Module,
              mse_loss=loop.mse_loss, train=loop.train) -> SimpleNamespace:
    """The exercise API of the lecture's engine with the given pieces, wired to one another."""
    N = type("Neuron", (neuron,), {"Value": value})
    L = type("Layer", (layer,), {"Neuron": N})
    M = type("MLP", (mlp,), {"Layer": L})
    return SimpleNamespace(name="mistaken", Value=value, Module=module, Neuron=N, Layer=L, MLP=M,
                           mse_loss=mse_loss, train=train)


def subclass(base, **members):
    return type(base.__name__, (base,), members)


# -- the closures of the operations ---------------------------------------------------------------

def overwrites(task, only=None):
    """`=` instead of `+=`: for every operand, or for operand `only` alone."""
    def rule(out, operands, k):
        for j, (x, d) in enumerate(zip(operands, local_derivatives(task, operands, k))):
            if only is None or j == only:
                x.grad = d * out.grad
            else:
                x.grad += d * out.grad
    return rule


def no_upstream(task):
    def rule(out, operands, k):
        for x, d in zip(operands, local_derivatives(task, operands, k)):
            x.grad += d
    return rule


def only_operand(task, i):
    def rule(out, operands, k):
        operands[i].grad += local_derivatives(task, operands, k)[i] * out.grad
    return rule


def with_local(derivatives):
    """The chain rule right, the local derivatives `derivatives(datas, out_data, k)` wrong."""
    def rule(out, operands, k):
        for x, d in zip(operands, derivatives([x.data for x in operands], out.data, k)):
            x.grad += d * out.grad
    return rule


def tanh_precedence(out, operands, k):
    operands[0].grad += 1 - out.data ** 2 * out.grad       # 1 - t**2 * out.grad


def pow_precedence(out, operands, k):
    a = operands[0]
    a.grad += k * a.data ** k - 1 * out.grad               # other * self.data**other-1 * out.grad


def unwrapped(task):
    """`__add__`/`__mul__` that take a number as it comes: it has no .data (the lecture's first version)."""
    forward = engine.OPS[task].forward

    def method(self, other):
        return self._node(task, forward(self.data, other.data), (self, other))
    return method


def op_models(task) -> list[Model]:
    def model(id_, rule, variant=""):
        return Model(task, id_, variant, lambda: build_api(subclass(Value, rules={**Value.rules, task: rule})))
    models = [model("overwrites_grad", overwrites(task)), model("missing_upstream_grad", no_upstream(task)),
              model("closure_does_nothing", lambda out, operands, k: None)]
    op = engine.OPS[task]
    if op.form == "binary":  # a number may stand on either side
        models += [model("overwrites_grad", overwrites(task, only=0), "first"),
                   model("overwrites_grad", overwrites(task, only=1), "second"),
                   model("one_operand_only", only_operand(task, 0), "first"),
                   model("one_operand_only", only_operand(task, 1), "second"),
                   # the forward code: a number unwrapped (`a + 3` and `3 + a` both fail), or no `3 + a`
                   Model(task, "number_not_wrapped", "",
                         lambda: build_api(subclass(Value, **{op.method: unwrapped(task)}))),
                   Model(task, "reflected_op_missing", "", lambda: build_api(subclass(Value, **{op.reflected: None})))]
    specific = {
        "mul": [("swapped_operands", with_local(lambda d, o, k: (d[0], d[1])))],
        "pow": [("operator_precedence", pow_precedence)],
        "tanh": [("derivative_at_input", with_local(lambda d, o, k: (1 - d[0] ** 2,))),
                 ("operator_precedence", tanh_precedence)],
        "exp": [("derivative_at_input", with_local(lambda d, o, k: (d[0],)))],
        "relu": [("relu_gradient_at_zero", with_local(lambda d, o, k: (1.0 if d[0] >= 0 else 0.0,)))],
    }
    return models + [model(id_, rule) for id_, rule in specific.get(task, ())]


# -- backward() -------------------------------------------------------------------------------------

def _preorder(root):
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            topo.append(v)
            for child in v._prev:
                build(child)
    build(root)
    return topo


def _no_visited(root):
    topo = []

    def build(v):
        for child in v._prev:
            build(child)
        topo.append(v)
    build(root)
    return topo


def _by_value(root):
    topo, visited = [], set()

    def build(v):
        if v.data not in visited:
            visited.add(v.data)
            for child in v._prev:
                build(child)
            topo.append(v)
    build(root)
    return topo


def _run(order, seed=True, accumulate=False, reset=False):
    def walk(root):
        topo = order(root)
        if reset:
            for v in topo:
                v.grad = 0.0
        if accumulate:
            root.grad += 1.0
        elif seed:
            root.grad = 1.0
        for v in topo:
            v._backward()
    return walk


def _only_root(root):
    root.grad = 1.0
    root._backward()


def _no_calls(root):
    """`v._backward` without the parentheses: the closures are looked up, never called."""
    root.grad = 1.0


def _recursion(root):
    root.grad = 1.0

    def go(v):
        v._backward()
        for child in v._prev:
            go(child)
    go(root)


def backward_models() -> list[Model]:
    def model(id_, walk, variant=""):
        return Model("backward", id_, variant, lambda: build_api(subclass(Value, walk=staticmethod(walk))))
    reversed_topo = lambda order: (lambda root: list(reversed(order(root))))  # noqa: E731
    return [
        model("topo_not_reversed", _run(topological)),
        model("topo_wrong_order", _run(reversed_topo(_preorder)), "preorder"),
        model("topo_wrong_order", _run(_preorder), "preorder_forward"),
        model("grad_not_seeded", _run(reversed_topo(topological), seed=False)),
        model("nodes_visited_twice", _run(reversed_topo(_no_visited))),
        model("seed_accumulates", _run(reversed_topo(topological), accumulate=True)),
        model("backward_resets_grads", _run(reversed_topo(topological), reset=True)),
        model("backward_only_root", _only_root),
        model("closures_not_called", _no_calls),
        model("no_topological_order", _recursion),
        model("visited_by_value", _run(reversed_topo(_by_value))),
    ]


# -- the neural net ---------------------------------------------------------------------------------

def _no_bias(self, x):
    return sum(wi * xi for wi, xi in zip(self.w, x))


def _layer_call(unwrap):
    def call(self, x):
        out = [n(x) for n in self.neurons]
        return unwrap(out, x)
    return call


def nn_models() -> list[Model]:
    def neuron(task, id_, variant="", **members):
        return Model(task, id_, variant, lambda: build_api(neuron=subclass(nn.Neuron, **members)))

    def layer(task, id_, variant="", **members):
        return Model(task, id_, variant, lambda: build_api(layer=subclass(nn.Layer, **members)))

    def mlp(id_, variant="", **members):
        return Model("mlp", id_, variant, lambda: build_api(mlp=subclass(nn.MLP, **members)))

    def module(id_, zero_grad):
        return Model("zero_grad", id_, "", lambda: build_api(module=subclass(nn.Module, zero_grad=zero_grad)))

    def call_with(activation=None, nonlin=None):
        def call(self, x):
            act = self.weighted_sum(x)
            on = self.nonlin if nonlin is None else nonlin(self.nonlin)
            if not on:
                return act
            return getattr(act, activation or self.activation)()
        return call

    def first_zero(self):
        params = self.parameters()
        if params:
            params[0].grad = 0.0

    def zero_data(self):
        for p in self.parameters():
            p.data = 0.0

    return [
        neuron("neuron", "bias_missing", weighted_sum=_no_bias),
        neuron("neuron", "wrong_activation", "relu", __call__=call_with(activation="relu")),
        neuron("neuron", "wrong_activation", "tanh", __call__=call_with(activation="tanh")),
        neuron("neuron", "wrong_activation", "none", __call__=call_with(nonlin=lambda on: False)),
        neuron("neuron", "wrong_activation", "always", __call__=call_with(nonlin=lambda on: True)),
        neuron("neuron", "wrong_activation", "inverted", __call__=call_with(nonlin=lambda on: not on)),
        layer("layer", "layer_list_for_one", __call__=_layer_call(lambda out, x: out)),
        layer("layer", "layer_first_neuron_only", __call__=_layer_call(lambda out, x: out[0] if out else out)),
        layer("layer", "layer_unwrap_by_inputs", __call__=_layer_call(lambda out, x: out[0] if len(x) == 1 else out)),
        mlp("wrong_activation", "every_layer", nonlin=lambda self, i, n: True),
        mlp("wrong_activation", "no_layer", nonlin=lambda self, i, n: False),
        mlp("wrong_activation", "first_layer", nonlin=lambda self, i, n: i != 0),
        mlp("mlp_layer_sizes", fan_in=lambda self, sz, i: sz[0]),
        mlp("mlp_missing_layer", built=lambda self, n: range(n - 1)),
        mlp("mlp_call_skips_layer", __call__=_skip_last_layer),
        neuron("parameters", "bias_missing", parameters=lambda self: list(self.w)),
        neuron("parameters", "parameter_order", "bias_first", parameters=lambda self: [self.b] + self.w),
        Model("parameters", "parameter_order", "layers_reversed", lambda: build_api(mlp=subclass(
            nn.MLP, parameters=lambda self: [p for lay in reversed(self.layers) for p in lay.parameters()]))),
        layer("parameters", "parameters_incomplete", parameters=lambda self: self.neurons[0].parameters()),
        neuron("parameters", "parameters_copies",
               parameters=lambda self: [self.Value(q.data) for q in (*self.w, self.b)]),
        module("zero_grad_missing", lambda self: None),
        module("zero_grad_resets_data", zero_data),
        module("zero_grad_first_only", first_zero),
    ]


def _skip_last_layer(self, x):
    for layer in self.layers[:-1]:
        x = layer(x)
    return x


# -- the loss and the loop --------------------------------------------------------------------------

def _sum_of_squares(predictions, targets):
    return sum((p - t) ** 2 for p, t in zip(predictions, targets))


def train_models() -> list[Model]:
    def loss(id_, fn, variant=""):
        return Model("mse_loss", id_, variant, lambda: build_api(mse_loss=fn))

    def loop_(id_, variant="", **knobs):
        return Model("train", id_, variant, lambda: build_api(train=loop.mistaken_train(**knobs)))

    return [
        loss("mse_not_mean", _sum_of_squares, "sum"),
        loss("mse_not_mean", lambda p, t: _sum_of_squares(p, t) / (len(p) - 1), "n_minus_1"),
        loss("mse_not_squared", lambda p, t: sum((a - b) for a, b in zip(p, t)) / len(p)),
        loss("mse_absolute", lambda p, t: sum(((a - b) ** 2) ** 0.5 for a, b in zip(p, t)) / len(p)),
        loss("mse_first_point_only", lambda p, t: (p[0] - t[0]) ** 2),
        loop_("zero_grad_missing", zero="never"),
        loop_("zero_grad_after_backward", zero="after"),
        loop_("update_sign", sign=1.0),
        *(loop_("learning_rate_ignored", f"lr_{lr:g}", lr=lr) for lr in LECTURE_RATES),
        loop_("update_uses_data", grad=False),
        loop_("loss_after_update", record="after"),
        loop_("steps_off_by_one", fewer=1),
        loop_("loss_per_parameter", per_parameter=True),
    ]


# the fixed steps students copy in place of lr (the lecture's 0.05 and 0.01 among them)
LECTURE_RATES = (1.0, 0.5, 0.1, 0.05, 0.01, 0.001)

CORRECT = Model("", "correct", "", build_api)

MODELS: tuple[Model, ...] = (
    *(m for task in engine.OPS for m in op_models(task)),
    *backward_models(), *nn_models(), *train_models(),
)
