"""Hand-derived cases of the neural-net and training tasks.

`activation` is the course's configured activation ("tanh" or "relu"): the
neuron cases use it, and their derivations say what it gives.
"""
from __future__ import annotations

from autograder.cases.common import case, fmt
from autograder.cases.hints import Hint
from autograder.cases.model import Case
from autograder.cases.worked import LECTURE, Worked
from autograder.tasks import OPS


def _act(activation: str, z: float) -> float:
    return OPS[activation].forward(z)


def neuron_cases(activation: str, worked: Worked = LECTURE) -> list[Case]:
    """Karpathy's neuron (its numbers the lecture's, or the student's own: cases/worked.py), and three more."""
    (x0, x1), (w0, w1), bias = worked.x, worked.w, worked.bias
    z, zneg = x0 * w0 + x1 * w1 + bias, -1.25
    p = {"nin": 2, "w": [w0, w1], "b": bias, "x": [x0, x1], "nonlin": True, "activation": activation}
    neg = {"nin": 2, "w": [1.0, 1.0], "b": -0.5, "x": [-1.0, 0.25], "nonlin": True, "activation": activation}
    lin = {"nin": 3, "w": [0.5, -1.0, 2.0], "b": -5.25, "x": [1.0, 2.0, 3.0], "nonlin": False, "activation": activation}
    L = (f"w . x + b = {fmt(x0)} * {fmt(w0)} + {fmt(x1)} * {fmt(w1)} + {bias} = {fmt(z)}; "
         f"{activation}({fmt(z)}) = {fmt(_act(activation, z))}.")
    return [
        case("neuron", "hand-L-neuron", "nn.neuron", {**p, "x_values": False},
             title=f"Karpathy's neuron: {activation}(w . x + b) with w = ({fmt(w0)}, {fmt(w1)}), b = {bias}, "
                   f"x = ({fmt(x0)}, {fmt(x1)})",
             derivation=L),
        case("neuron", "hand-linear", "nn.neuron", {**lin, "x_values": False},
             title="a linear neuron (nonlin=False): w . x + b, no activation",
             derivation="0.5 * 1 + -1 * 2 + 2 * 3 + -5.25 = -0.75, returned as it is (negative, so that an "
                        "activation applied by mistake would change it: relu to 0, tanh to -0.635).",
             hint=Hint("With nonlin=False the neuron returns w . x + b itself, with no activation.", "failed")),
        case("neuron", "hand-value-inputs", "nn.neuron", {**p, "x_values": True},
             title="Karpathy's neuron with the inputs given as Values",
             derivation=L + " The inputs are Values here (as in a second layer): the output must stay "
                            "connected to them, so backward() can reach x too.",
             hint=Hint("Multiply the weights by the input Values themselves, not by their .data: the output "
                       "must stay connected to x.", "disconnected")),
        case("neuron", "hand-negative", "nn.neuron", {**neg, "x_values": False},
             title=f"{activation} of a negative w . x + b",
             derivation=f"1 * -1 + 1 * 0.25 - 0.5 = -1.25; {activation}(-1.25) = {fmt(_act(activation, zneg))}."),
    ]


def layer_cases() -> list[Case]:
    why = ("The layer's neurons are replaced by stand-ins: neuron j returns j + 1*x0 + 2*x1 + ..., "
           "so the outputs show which neuron ran, on which x, in which order. ")
    return [
        case("layer", "hand-three", "nn.layer", {"nin": 2, "nout": 3, "x": [0.5, -1.0], "x_values": False},
             title="Layer(2, 3) on x = (0.5, -1): three outputs, in neuron order",
             derivation=why + "1*0.5 + 2*-1 = -1.5, so the outputs are [-1.5, -0.5, 0.5], as a list."),
        case("layer", "hand-one", "nn.layer", {"nin": 3, "nout": 1, "x": [1.0, 2.0, -1.0], "x_values": False},
             title="Layer(3, 1): one neuron gives its Value itself, not a list",
             derivation=why + "1*1 + 2*2 + 3*-1 = 2; a layer of one neuron returns that Value (is_single = 1).",
             hint=Hint("With one neuron, return out[0], not [out[0]]: the MLP's last layer then gives a Value.",
                       "listed_one")),
        case("layer", "hand-value-inputs", "nn.layer", {"nin": 2, "nout": 2, "x": [2.0, 0.5], "x_values": True},
             title="Layer(2, 2) on inputs given as Values",
             derivation=why + "1*2 + 2*0.5 = 3, so the outputs are [3, 4]."),
    ]


def mlp_cases(activation: str) -> list[Case]:
    def mlp(name, nin, nouts, title, derivation):
        p = {"nin": nin, "nouts": nouts, "activation": activation}
        return case("mlp", f"hand-{name}", "nn.mlp", p, title=title, derivation=derivation)
    return [
        mlp("README", 3, [4, 4, 1], "MLP(3, [4, 4, 1]), the network of micrograd's README",
            "sizes [3, 4, 4, 1]: layers of 4, 4 and 1 neurons taking 3, 4 and 4 inputs; the 8 hidden "
            f"neurons are nonlin ({activation}), the output neuron is linear."),
        mlp("one-layer", 2, [1], "MLP(2, [1]): a single, linear layer",
            "One layer of one neuron with 2 inputs; it is the last layer, so it is linear (nonlin False)."),
        mlp("wide-first", 1, [3, 2], "MLP(1, [3, 2])",
            "Layer 0: 3 neurons of 1 input, nonlin; layer 1: 2 neurons of 3 inputs, linear."),
        *mlp_call_cases(activation),
    ]


def mlp_call_cases(activation: str) -> list[Case]:
    stand_in = ("The MLP's layers are replaced by stand-ins: output j of layer i is (i+1)*10 + j + 1*x0 + 2*x1 "
                "+ ..., one Value when the layer has one output. ")

    def call(name, nin, nouts, x, title, derivation):
        p = {"nin": nin, "nouts": nouts, "x": x, "activation": activation}
        return case("mlp", f"hand-call-{name}", "nn.mlp_call", p, title=title, derivation=stand_in + derivation,
                    hint=Hint("MLP.__call__ feeds each layer the previous layer's output, every layer in order, "
                              "the last one included, and returns what the last layer returned.", "failed"))
    return [
        call("README", 3, [4, 4, 1], [1.0, 0.5, -1.0], "MLP(3, [4, 4, 1]) called on x = (1, 0.5, -1)",
             "Layer 0: 1 + 1 - 3 = -1, so 9, 10, 11, 12; layer 1: 20 + 9 + 20 + 33 + 48 = 130, so 130 ... 133; "
             "layer 2: 30 + 130 + 262 + 396 + 532 = 1350, one Value."),
        call("two-out", 2, [3, 2], [2.0, -1.0], "MLP(2, [3, 2]) called on x = (2, -1)",
             "Layer 0: 2 - 2 = 0, so 10, 11, 12; layer 1: 20 + 10 + 22 + 36 = 88, so [88, 89]: a list of two."),
    ]


def parameters_cases() -> list[Case]:
    def params(name, p, title, derivation):
        return case("parameters", f"hand-{name}", "nn.parameters", p, title=title, derivation=derivation)
    return [
        params("neuron", {"kind": "neuron", "nin": 3}, "Neuron(3).parameters()",
               "w0, w1, w2, then b: the very Values n.w[0], n.w[1], n.w[2], n.b, 4 of them."),
        params("layer", {"kind": "layer", "nin": 2, "nout": 3}, "Layer(2, 3).parameters()",
               "Neuron by neuron, weights then bias: w0, w1, b of neuron 0, then of neuron 1, then of neuron 2: 9."),
        params("mlp", {"kind": "mlp", "nin": 2, "nouts": [3, 1]}, "MLP(2, [3, 1]).parameters()",
               "Layer 0 (3 neurons of 2 weights + bias: 9), then layer 1 (1 neuron of 3 weights + bias: 4): 13."),
        params("mlp-narrow", {"kind": "mlp", "nin": 2, "nouts": [1, 2]}, "MLP(2, [1, 2]).parameters()",
               "Layer 0 has one neuron (3 parameters), layer 1 two neurons of 1 weight + bias (4): 7, one flat list."),
    ]


def zero_grad_cases() -> list[Case]:
    def zg(name, data, grads, title):
        return case("zero_grad", f"hand-{name}", "nn.zero_grad", {"data": data, "grads": grads}, title=title,
                    derivation="After zero_grad() every parameter's grad is 0 and its data what it was.")
    return [
        zg("three", [2.0, -3.0, 0.5], [1.5, -2.0, 0.25], "zero_grad() on three parameters with grads 1.5, -2, 0.25"),
        zg("one", [10.0], [-7.0], "zero_grad() on one parameter with grad -7"),
        zg("some-zero", [1.0, 2.0], [0.0, 3.0], "zero_grad() when one grad is already 0"),
    ]


def mse_loss_cases() -> list[Case]:
    def mse(name, preds, targets, values, title, derivation, hint=None):
        p = {"predictions": preds, "targets": targets, "targets_values": values}
        return case("mse_loss", f"hand-{name}", "train.mse", p, title=title, derivation=derivation, hint=hint)
    return [
        mse("three", [1.0, 2.0, 3.0], [1.5, 1.0, 3.0], False, "predictions (1, 2, 3), targets (1.5, 1, 3)",
            f"errors -0.5, 1, 0; squares 0.25, 1, 0; mean (0.25 + 1 + 0) / 3 = {fmt(1.25 / 3)}."),
        mse("one", [2.0], [-1.0], False, "one prediction 2, target -1",
            "(2 - -1)**2 = 9, the mean of one square."),
        mse("value-targets", [0.5, -0.5], [1.0, 1.0], True, "targets given as Values",
            "errors -0.5, -1.5; (0.25 + 2.25) / 2 = 1.25."),
        mse("mean-not-sum", [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0], False, "four errors of 1: the mean is 1",
            "Each square is 1; their mean is 1 (their sum, 4, is not the mean squared error).",
            hint=Hint("Divide the sum of squares by the number of predictions.", "summed")),
    ]


def train_cases() -> list[Case]:
    line = {"w": [0.5], "b": 0.0, "xs": [[1.0], [2.0]], "ys": [2.0, 4.0], "lr": 0.1}
    step1 = ("The model is z = w*x + b at w = 0.5, b = 0: z = (0.5, 1), errors (-1.5, -3), loss (2.25 + 9) / 2 = 5.625. "
             "d/dw = mean(2 * error * x) = (-3 - 12) / 2 = -7.5, d/db = mean(2 * error) = -4.5; the step "
             "p -= 0.1 * grad gives w = 1.25, b = 0.45.")
    return [
        case("train", "hand-one-step", "train.probe", {**line, "steps": 1},
             title="one step of gradient descent on a line", derivation=step1),
        case("train", "hand-three-steps", "train.probe", {**line, "steps": 3},
             title="three steps: grads must be zeroed before each backward()",
             derivation=step1 + " Step 2 (grads zeroed first): z = (1.7, 2.95), loss 0.59625, grads -2.4 and "
             "-1.35, so w = 1.49, b = 0.585. Step 3: loss 0.097425; w = 1.5695, b = 0.621. Without zero_grad() "
             "step 2 would use -7.5 - 2.4 = -9.9 for w.",
             hint=Hint("Call model.zero_grad() at the start of every step: backward() adds to the grads, so "
                       "without it each step also applies all the earlier steps' gradients.", "piles_up")),
        case("train", "hand-two-inputs", "train.probe",
             {"w": [0.2, -0.1], "b": 0.1, "xs": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], "ys": [1.0, -1.0, 0.0],
              "steps": 4, "lr": 0.2},
             title="four steps on a model with two inputs",
             derivation="Each step: zero_grad(), loss = mse_loss(...), backward(), p.data -= 0.2 * p.grad, "
                        "and the loss (before the update) appended as a float: four losses."),
    ]
