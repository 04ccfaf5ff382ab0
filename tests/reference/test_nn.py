"""Does the reference's nn follow the exercise API: parameter order, activations, forward pass?"""
from __future__ import annotations

import math
import random

import pytest

from autograder.engines import reference_api, torch_api
from autograder.selfcheck import agree
from reference import MLP, Layer, Neuron, Value, mse_loss, train


def set_parameters(model, values):
    for p, v in zip(model.parameters(), values, strict=True):
        p.data = v


def fixed_vector(n, seed=0):
    rng = random.Random(seed)
    return [rng.uniform(-1, 1) for _ in range(n)]


def test_neuron_parameters_are_its_weights_then_its_bias():
    """Does Neuron(3).parameters() list w[0], w[1], w[2], then b, as the very objects?"""
    n = Neuron(3)
    params = n.parameters()
    assert len(params) == 4
    assert all(p is w for p, w in zip(params, n.w)) and params[3] is n.b


def test_layer_parameters_go_neuron_by_neuron():
    """Does Layer(3, 2).parameters() give neuron 0's four, then neuron 1's four?"""
    layer = Layer(3, 2)
    params = layer.parameters()
    assert len(params) == 8
    assert params[:4] == layer.neurons[0].parameters() and params[4:] == layer.neurons[1].parameters()


def test_mlp_parameters_go_layer_by_layer():
    """Does MLP(3, [4, 4, 1]) have 4*4 + 4*5 + 1*5 = 41 parameters, layer by layer?"""
    mlp = MLP(3, [4, 4, 1])
    assert len(mlp.parameters()) == 41
    assert mlp.parameters() == [p for layer in mlp.layers for p in layer.parameters()]
    assert [len(layer.neurons) for layer in mlp.layers] == [4, 4, 1]


def test_the_last_layer_is_linear_by_default():
    """Are the hidden layers tanh and the last layer linear unless last_nonlin is set?"""
    mlp = MLP(2, [3, 3, 1])
    assert [n.nonlin for layer in mlp.layers for n in layer.neurons] == [True] * 6 + [False]
    assert all(n.activation == "tanh" for layer in mlp.layers for n in layer.neurons)
    assert MLP(2, [3, 1], last_nonlin=True).layers[-1].neurons[0].nonlin


def test_relu_activation_option():
    """Does activation='relu' make the hidden neurons compute max(0, w.x + b)?"""
    mlp = MLP(2, [3, 1], activation="relu")
    assert all(n.activation == "relu" for n in mlp.layers[0].neurons)
    neuron = mlp.layers[0].neurons[0]
    set_parameters(neuron, [1.0, -1.0, 0.25])
    assert neuron([1.0, 2.0]).data == 0.0  # 1 - 2 + 0.25 < 0
    assert neuron([2.0, 1.0]).data == 1.25


def test_an_unknown_activation_is_refused():
    """Is a misspelt activation an error at construction, not a silent tanh?"""
    with pytest.raises(ValueError, match="activation"):
        Neuron(2, activation="sigmoidd")


def test_a_single_neuron_layer_returns_a_value():
    """Does a layer of one neuron return that neuron's Value, not a list of one?"""
    assert isinstance(Layer(2, 1)([1.0, 2.0]), Value)
    assert len(Layer(2, 3)([1.0, 2.0])) == 3


def by_hand(params, sizes, x, act=math.tanh):
    """The MLP's forward pass in plain floats, from its parameter vector."""
    it = iter(params)
    for k, (nin, nout) in enumerate(zip(sizes, sizes[1:])):
        last = k == len(sizes) - 2
        outs = []
        for _ in range(nout):
            w = [next(it) for _ in range(nin)]
            z = next(it) + sum(wi * xi for wi, xi in zip(w, x))
            outs.append(z if last else act(z))
        x = outs
    return x


@pytest.mark.parametrize("activation, act", [("tanh", math.tanh), ("relu", lambda z: max(z, 0.0))])
def test_mlp_forward_equals_composing_neurons_by_hand(activation, act):
    """Is MLP(3, [4, 4, 2])(x) what the neurons' formula gives in plain floats?"""
    mlp = MLP(3, [4, 4, 2], activation=activation)
    params = fixed_vector(len(mlp.parameters()))
    set_parameters(mlp, params)
    x = [0.5, -1.0, 2.0]
    got = [v.data for v in mlp(x)]
    assert got == pytest.approx(by_hand(params, [3, 4, 4, 2], x, act), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_reference_mlp_agrees_with_torch_on_gradients_and_training(activation):
    """With the same parameters, do the reference and torch give the same loss, grads and training run?"""
    runs = []
    for api in (reference_api(), torch_api()):
        mlp = api.MLP(3, [4, 4, 1], activation=activation)
        set_parameters(mlp, fixed_vector(len(mlp.parameters())))
        xs = [[0.5, -1.0, 2.0], [1.0, 0.0, -0.5], [-0.3, 0.8, 0.1]]
        ys = [1.0, -1.0, 0.5]
        loss = api.mse_loss([mlp(x) for x in xs], ys)
        loss.backward()
        grads = [p.grad for p in mlp.parameters()]
        losses = api.train(mlp, xs, ys, steps=5, lr=0.1)
        runs.append(([loss.data, *grads], losses, [p.data for p in mlp.parameters()]))
    for ref, tor in zip(*runs):
        assert all(agree(r, t) for r, t in zip(ref, tor, strict=True)), (ref, tor)


def test_train_returns_one_decreasing_loss_per_step():
    """Does train() return `steps` floats, the first being the loss before any update?"""
    random.seed(1)
    mlp = MLP(2, [4, 1])
    xs, ys = [[1.0, 0.0], [0.0, 1.0]], [1.0, -1.0]
    first = mse_loss([mlp(x) for x in xs], ys).data
    losses = train(mlp, xs, ys, steps=20, lr=0.1)
    assert len(losses) == 20 and all(isinstance(v, float) for v in losses)
    assert losses[0] == first and losses[-1] < losses[0]
