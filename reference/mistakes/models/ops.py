"""The mistakes of an operation's `_backward` closure, and of its forward code (tasks add ... relu, and a
variant's extra operation: its constant is the closure's k)."""
from __future__ import annotations

from reference.mistakes import engine
from reference.mistakes.engine import Value, local_derivatives
from reference.mistakes.models.base import Model, build_api, subclass


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


def grad_for_data(task):
    """A `.grad` where the local derivative needs a `.data` (`other.grad * out.grad` in mul), as written: in
    mul the second line reads the first operand's grad after the first line has added to it."""
    def rule(out, operands, k):
        a = operands[0]
        if task == "mul":
            b = operands[-1]
            a.grad += b.grad * out.grad
            b.grad += a.grad * out.grad
        elif task == "pow":
            a.grad += k * a.grad ** (k - 1) * out.grad
        elif task == "exp":
            a.grad += out.grad * out.grad
        elif task == "relu":
            a.grad += (out.grad > 0) * out.grad
    return rule


GRAD_FOR_DATA = ("mul", "pow", "exp", "relu")


def on_operand(task):
    """`self._backward = _backward`: the closure attached to the first operand, not to `out` (which keeps
    the default that does nothing, while the operand loses its own closure)."""
    def _node(self, t, data, operands, k=None):
        out = Value._node(self, t, data, operands, k)
        if t == task:
            operands[0]._backward, out._backward = out._backward, (lambda: None)
        return out
    return _node


def op_models(task) -> list[Model]:
    def model(id_, rule, variant="", also=(), **methods):
        return Model(task, id_, variant, lambda: build_api(subclass(Value, rules={**Value.rules, task: rule},
                                                                    **methods)), also)
    op = engine.EVERY_OP[task]
    models = [model("overwrites_grad", overwrites(task)), model("missing_upstream_grad", no_upstream(task)),
              model("closure_does_nothing", lambda out, operands, k: None)]
    if not op.constant:
        # a variant's operation has no case that calls closures one by one through a graph (ops.graph), which
        # alone tells a closure on the operand from one that does nothing: there, "does nothing" is named, and
        # its fix (`out._backward = _backward`) is the fix of both
        models.append(Model(task, "closure_on_operand", "", lambda: build_api(subclass(Value, _node=on_operand(task)))))
    if op.form == "binary":  # a number may stand on either side
        models += [model("overwrites_grad", overwrites(task, only=0), "first"),
                   model("overwrites_grad", overwrites(task, only=1), "second"),
                   model("one_operand_only", only_operand(task, 0), "first"),
                   model("one_operand_only", only_operand(task, 1), "second"),
                   # the forward code: a number unwrapped (`a + 3` and `3 + a` both fail), or no `3 + a`
                   Model(task, "number_not_wrapped", "",
                         lambda: build_api(subclass(Value, **{op.method: unwrapped(task)}))),
                   Model(task, "reflected_op_missing", "", lambda: build_api(subclass(Value, **{op.reflected: None})))]
        # two mistakes in one task, as real students make them: the closure's and the forward code's
        for id_, rule in (("overwrites_grad", overwrites(task)), ("missing_upstream_grad", no_upstream(task))):
            models += [model(id_, rule, also=("number_not_wrapped",), **{op.method: unwrapped(task)}),
                       model(id_, rule, also=("reflected_op_missing",), **{op.reflected: None})]
    if task in GRAD_FOR_DATA:
        models.append(model("grad_for_data", grad_for_data(task)))
    specific = {
        "mul": [("swapped_operands", with_local(lambda d, o, k: (d[0], d[1])))],
        "pow": [("operator_precedence", pow_precedence)],
        "tanh": [("derivative_at_input", with_local(lambda d, o, k: (1 - d[0] ** 2,))),
                 ("operator_precedence", tanh_precedence)],
        "exp": [("derivative_at_input", with_local(lambda d, o, k: (d[0],)))],
        "relu": [("relu_gradient_at_zero", with_local(lambda d, o, k: (1.0 if d[0] >= 0 else 0.0,)))],
    }
    return models + [model(id_, rule) for id_, rule in specific.get(task, ())]
