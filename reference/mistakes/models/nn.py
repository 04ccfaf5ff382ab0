"""The mistakes of the neural net: neuron, layer, mlp, parameters, zero_grad."""
from __future__ import annotations

from reference.mistakes import nn
from reference.mistakes.models.base import Model, build_api, subclass


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
