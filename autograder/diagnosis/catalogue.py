"""The classic backprop mistakes the kit can name: one id and one sentence with the fix each.

The ids the design fixes come first; the kit's own follow. A mistake is named only when
one of its models (reference/mistakes/models/: the lecture's engine with that one piece
wrong) predicts every observation of the failing task, or, for `wrong_local_derivative`,
when the closure's probes show the chain rule right and the local derivative wrong
(diagnosis/local_derivative.py). The order is the order of precedence in a report.
"""
from __future__ import annotations

from types import MappingProxyType

from autograder.tasks import OPS

# d out / d operand, as the fix of a wrong local derivative says it (in words: the handout ships this
# file, and must not ship the solution's lines)
FORMULA = MappingProxyType({
    "add": "1 for each operand",
    "mul": "the other operand's data (d(a * b)/da = b)",
    "pow": "k * a**(k - 1)",
    "tanh": "1 - t**2 with t the output, out.data",
    "exp": "exp(a), which is the output itself, out.data",
    "relu": "1 where the output is > 0, else 0",
    # a variant's extra operation, with the student's own constant ({c})
    "sigmoid": "c * s * (1 - s) with s the output, out.data, and c = {c}",
    "softplus": "sigmoid(beta * a) = 1 / (1 + exp(-beta * a)) with beta = {c}",
    "log": "1 / (a * ln(base)) with base = {c}",
    "sin": "w * cos(w * a) with w = {c}",
    "leaky_relu": "1 where the input is > 0, else the slope, {c}",
    "power": "k * a**(k - 1) with k = {c}",
})

# id -> the sentence a student reads: what went wrong, and the fix. {op}: the operation's name.
MESSAGES = MappingProxyType({
    "overwrites_grad": "`x.grad = ...` in {op}'s _backward overwrites what another path already added: use `+=`.",
    "missing_upstream_grad": "{op}'s _backward adds the local derivative alone: multiply it by `out.grad` (the chain "
                             "rule), as in `self.grad += <local derivative> * out.grad`.",
    "one_operand_only": "only one operand of {op} receives a gradient: both need their share (`self.grad += ...` "
                        "and `other.grad += ...`).",
    "swapped_operands": "in *'s _backward each operand gets its own data: the derivative of a * b by a is b, so "
                        "each operand's share is the *other* operand's data times out.grad.",
    "derivative_at_input": "{op}'s _backward takes the derivative at the input: use the output, {formula}.",
    "operator_precedence": "{op}'s _backward is missing parentheses: {precedence}",
    "relu_gradient_at_zero": "relu passes the gradient on at exactly 0, where its derivative is 0 (as PyTorch "
                             "takes it): test `out.data > 0`, not `>= 0`.",
    "wrong_local_derivative": "{op}'s _backward adds and scales by out.grad as it should, but its local derivative "
                              "is wrong: it is {formula}.",
    "topo_not_reversed": "backward() calls the closures in topological order, leaves first: walk `reversed(topo)`, "
                         "so that each node's grad is complete before its closure passes it on.",
    "topo_wrong_order": "your topological order lists a node before its children: append a node to topo only "
                        "after building the topo of all its children (post-order), then walk it reversed.",
    "grad_not_seeded": "backward() never sets the output's grad to 1 (dL/dL = 1), so every grad stays 0: set "
                       "`self.grad = 1` before the closures run.",
    "nodes_visited_twice": "build_topo keeps no visited set: a node reached along two paths is listed, and "
                           "back-propagated, twice. Add a `visited` set and skip nodes already in it.",
    "zero_grad_missing": "the grads are never reset before backward(): the gradients of every step pile up.",
    "zero_grad_after_backward": "train calls zero_grad() between backward() and the update: the update sees grads "
                                "of 0 and nothing moves. Zero the grads before the forward pass and backward().",
    "update_sign": "the update adds `lr * p.grad`, which climbs the loss: gradient descent subtracts, "
                   "`p.data -= lr * p.grad`.",
    "learning_rate_ignored": "the update uses a fixed step, not the `lr` it is given: `p.data -= lr * p.grad`.",
    "bias_missing": "the bias is left out: a neuron computes w . x + b, and b is one of its parameters.",
    "parameter_order": "parameters() lists them in another order: layer by layer, neuron by neuron, each neuron's "
                       "weights first and then its bias.",
    "wrong_activation": "the activation is wrong: the configured one where nonlin is True, none where it is False.",
    "mse_not_mean": "mse_loss does not divide the sum of squared errors by their count: the mean is "
                    "`sum(...) / len(predictions)`.",
    # -- the kit's own ----------------------------------------------------------------------
    "closure_does_nothing": "{op}'s _backward changes no grad: attach the closure to its node after defining it, "
                            "`out._backward = _backward` (without that the node keeps the default, which does "
                            "nothing), and check that its body adds to the grads.",
    "closure_on_operand": "{op}'s closure is attached to its operand (`self._backward = _backward`), not to the "
                          "node it belongs to: the node keeps the default that does nothing, and the operand "
                          "loses its own closure. Attach it to the result, `out._backward = _backward`.",
    "number_not_wrapped": "a plain number reaches {op} as it is (as in `a {op} 3`), and a number has no .data: "
                          "wrap it first, `other = other if isinstance(other, Value) else Value(other)`; `3 {op} a` "
                          "then works through `{reflected}` (`return self {op} other`).",
    "reflected_op_missing": "`3 {op} a` fails: Python asks the number first, then your Value's `{reflected}`, which "
                            "is missing: add `def {reflected}(self, other): return self {op} other`.",
    "seed_accumulates": "backward() seeds with `self.grad += 1`, so a second backward() starts from 2: set "
                        "`self.grad = 1`.",
    "backward_resets_grads": "backward() sets every grad in the graph to 0 first, so the leaves lose the grads "
                             "they held: grads accumulate across calls (zero_grad() is there to reset them).",
    "backward_only_root": "backward() calls only the output's own _backward: call every node's, in reversed "
                          "topological order.",
    "closures_not_called": "backward() seeds the output's grad but no closure runs, so every other grad stays 0: "
                           "call each node's closure, `v._backward()` (with the parentheses), from the output back.",
    "no_topological_order": "backward() calls a node's _backward as soon as it reaches it, once per path from the "
                            "output, so a node shared by two paths passes its grad on before it is complete: walk "
                            "a topological order (each node once, after every node that uses it).",
    "append_outside_visited": "`topo.append(v)` is outside build_topo's `if v not in visited` check: a node "
                              "reached along two paths is listed, and back-propagated, twice. Append it inside "
                              "the check, after its children.",
    "grad_for_data": "{op}'s _backward uses a `.grad` where its local derivative needs a `.data`: the local "
                     "derivative is {formula}, made of the numbers of the forward pass, not of grads.",
    "visited_by_value": "build_topo remembers numbers, not nodes: a second node holding the same number is "
                        "skipped. Put the nodes themselves in `visited`.",
    "layer_list_for_one": "a layer of one neuron returns a list of one: return that Value itself "
                          "(`out[0] if len(out) == 1 else out`).",
    "layer_first_neuron_only": "the layer returns after its first neuron (a `return` inside the loop?): apply "
                               "every neuron, then return.",
    "layer_unwrap_by_inputs": "the layer unwraps its output by the number of inputs: unwrap when it has one "
                              "neuron (`len(out) == 1`).",
    "mlp_layer_sizes": "layer i maps sz[i] inputs to sz[i+1] outputs: each layer's fan-in is the previous "
                       "layer's width, not nin.",
    "mlp_missing_layer": "MLP builds one layer fewer than nouts has entries: `for i in range(len(nouts))`.",
    "mlp_call_skips_layer": "MLP.__call__ skips a layer: feed x through every layer in turn.",
    "parameters_incomplete": "Layer.parameters() lists only the first neuron's parameters: every neuron's, "
                             "neuron by neuron.",
    "parameters_copies": "parameters() returns new Values holding the numbers: return the model's own Values "
                         "(self.w, self.b), so that training updates the model.",
    "zero_grad_resets_data": "zero_grad() sets p.data to 0: it resets p.grad and leaves the data alone.",
    "zero_grad_first_only": "zero_grad() resets only the first parameter: reset every one.",
    "mse_not_squared": "mse_loss averages the plain differences, so errors of opposite signs cancel: square "
                       "each (p - t).",
    "mse_absolute": "mse_loss averages the absolute errors: the mean squared error squares them (no square root).",
    "mse_first_point_only": "mse_loss uses only the first prediction: average over all of them.",
    "update_uses_data": "the update subtracts `lr * p.data`: descent follows the gradient, `lr * p.grad`.",
    "loss_after_update": "train records the loss after the update: append the loss of this step, the one "
                         "backward() ran on.",
    "steps_off_by_one": "train runs one step fewer than asked: `for _ in range(steps)`.",
    "loss_per_parameter": "losses.append is inside the loop over the parameters: append once per step, after "
                          "the update.",
})
IDS: tuple[str, ...] = tuple(MESSAGES)
# the ids the design fixes (issue 13), in its order; the rest are the kit's own
DESIGNED: tuple[str, ...] = IDS[:IDS.index("mse_not_mean") + 1]

# what the class summary says of the students who made each mistake: "mul: 9 students <...>"
RETEACH = MappingProxyType({
    "overwrites_grad": "overwrite grads with `=` instead of adding with `+=`",
    "missing_upstream_grad": "leave out the chain rule's `* out.grad`",
    "one_operand_only": "give only one operand its gradient",
    "swapped_operands": "give each operand of `*` its own data instead of the other's",
    "derivative_at_input": "take the derivative at the input instead of the output",
    "operator_precedence": "lose the chain rule to operator precedence (missing parentheses)",
    "relu_gradient_at_zero": "pass relu's gradient at exactly 0",
    "wrong_local_derivative": "get the local derivative wrong",
    "topo_not_reversed": "walk the graph in topological order, not reversed",
    "topo_wrong_order": "list a node before its children (pre-order)",
    "grad_not_seeded": "never seed the output's grad with 1",
    "nodes_visited_twice": "visit shared nodes twice (no visited set)",
    "zero_grad_missing": "never reset the grads",
    "zero_grad_after_backward": "reset the grads between backward() and the update",
    "update_sign": "step up the gradient (ascent)",
    "learning_rate_ignored": "ignore lr for a fixed step",
    "bias_missing": "leave out the bias",
    "parameter_order": "list the parameters in another order",
    "wrong_activation": "use the wrong activation, or on the wrong layers",
    "mse_not_mean": "sum the squared errors instead of averaging them",
    "closure_does_nothing": "never attach the closure to its node (`out._backward = _backward`)",
    "closure_on_operand": "attach the closure to the operand (`self._backward`) instead of `out`",
    "number_not_wrapped": "pass plain numbers into an operation unwrapped",
    "reflected_op_missing": "leave out the reflected operation (`3 + a`, `3 * a`)",
    "seed_accumulates": "seed the output's grad with `+= 1`",
    "backward_resets_grads": "reset every grad inside backward()",
    "backward_only_root": "call only the output's _backward",
    "closures_not_called": "never call the closures in backward() (`v._backward` without `()`)",
    "no_topological_order": "walk the graph once per path instead of in topological order",
    "append_outside_visited": "append to topo outside the visited check",
    "grad_for_data": "use a `.grad` where the local derivative needs a `.data`",
    "visited_by_value": "mark numbers as visited instead of nodes",
    "layer_list_for_one": "return a list of one from a one-neuron layer",
    "layer_first_neuron_only": "return after the first neuron",
    "layer_unwrap_by_inputs": "unwrap a layer's output by its number of inputs",
    "mlp_layer_sizes": "give every layer nin inputs",
    "mlp_missing_layer": "build one layer too few",
    "mlp_call_skips_layer": "skip a layer in MLP.__call__",
    "parameters_incomplete": "list only the first neuron's parameters",
    "parameters_copies": "return copies of the parameters",
    "zero_grad_resets_data": "reset the data instead of the grads",
    "zero_grad_first_only": "reset only the first parameter",
    "mse_not_squared": "average plain differences, not squares",
    "mse_absolute": "average absolute errors",
    "mse_first_point_only": "use only the first prediction",
    "update_uses_data": "step by p.data instead of p.grad",
    "loss_after_update": "record the loss after the update",
    "steps_off_by_one": "run one step too few",
    "loss_per_parameter": "append the loss once per parameter",
})

_PER_TASK = {
    ("zero_grad", "zero_grad_missing"): "zero_grad() leaves the grads as they were: set `p.grad = 0` for every "
                                        "parameter (a `==` where `=` was meant?).",
    ("train", "zero_grad_missing"): "train never resets the grads before backward(): the gradients of every "
                                    "step pile up. Call `model.zero_grad()` first in each step.",
    ("neuron", "bias_missing"): "the neuron leaves out its bias: act = w . x + b (start the sum from self.b).",
    ("parameters", "bias_missing"): "parameters() leaves out the bias: a neuron's are its weights, then its bias.",
    ("neuron", "wrong_activation"): "the neuron's activation is wrong: apply the configured one "
                                    "(`self.activation`) when `self.nonlin`, and none when it is False.",
    ("mlp", "wrong_activation"): "the layers' nonlin flags are wrong: every hidden layer has the activation, "
                                 "the last layer is linear (nonlin False for the last one only).",
}
_PRECEDENCE = {
    "tanh": "`1 - t**2 * out.grad` multiplies only t**2 by out.grad; write `(1 - t**2) * out.grad`.",
    "pow": "`self.data**other-1` is `(self.data**other) - 1`; write `self.data**(other - 1)`.",
}


def message(task: str, mistake: str, constant: float | None = None) -> str:
    """The sentence for `mistake` in `task` (a variant's extra operation: with its constant in the formula)."""
    text = _PER_TASK.get((task, mistake)) or MESSAGES[mistake]
    op = OPS.get(task)
    formula = FORMULA.get(task, "").format(c=f"{constant:g}" if constant is not None else "")
    return text.format(op=op.symbol if op else task, formula=formula,
                       precedence=_PRECEDENCE.get(task, ""), reflected=op.reflected if op else "")
