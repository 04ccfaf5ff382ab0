"""The repairs of the neural net (tasks neuron, layer, mlp, parameters, zero_grad): Neuron, Layer, MLP and
Module's methods, by the names the exercise API gives them."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair import nn_params
from autograder.diagnosis.repair.base import MethodRepair, Repair, code, expr, first, names, stmt


def _lines(fn):
    return list(fn.body.body)


def _with(fn, lines):
    return fn.with_changes(body=fn.body.with_changes(body=lines))


def _init_attr(cls_node_code: str, param: str) -> str | None:
    """The attribute __init__ keeps a parameter in (`self.nonlin = nonlin` -> "nonlin")."""
    for line in cls_node_code.splitlines():
        left, eq, right = line.strip().partition(" = ")
        if eq and left.startswith("self.") and right.split("#")[0].strip() == param:
            return left[5:]
    return None


class NeuronRepair(Repair):
    """A repair of Neuron.__call__, knowing how Neuron's __init__ keeps its bias and configuration."""
    def leave_class(self, original_node, updated_node):
        if original_node.name.value != "Neuron":
            return updated_node
        text = code(updated_node)
        lines = _lines(updated_node)
        for i, line in enumerate(lines):
            if isinstance(line, cst.FunctionDef) and line.name.value == "__call__":
                fixed = self.fix_call(line, text)
                if fixed is not None:
                    self.mark(original_node.body.body[i])
                    lines[i] = fixed
                    return _with(updated_node, lines)
        return updated_node


class AddBias(NeuronRepair):
    """bias_missing (neuron): `sum(wi*xi for ...)` -> `sum((wi*xi for ...), self.b)`."""
    change = "the bias added, `sum(..., self.{b})`"

    def fix_call(self, fn, text):
        bias = next((line.strip()[5:].split(" = ")[0] for line in text.splitlines()
                     if line.strip().startswith("self.") and " = Value(" in line and "[" not in line), None)
        if bias is None:
            return None

        class Start(cst.CSTTransformer):
            done = False

            def leave_Call(self, original_node, updated_node):
                if self.done or code(updated_node.func) != "sum" or len(updated_node.args) != 1:
                    return updated_node
                self.done = True
                arg = updated_node.args[0].value
                if isinstance(arg, cst.GeneratorExp) and not arg.lpar:
                    arg = arg.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
                return updated_node.with_changes(args=[cst.Arg(arg, comma=cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(expr(f"self.{bias}"))])
        start = Start()
        fixed = fn.visit(start)
        self.change = self.change.format(b=bias)
        return fixed if start.done else None


class ApplyConfiguredActivation(NeuronRepair):
    """wrong_activation (neuron): what follows `act = ...` becomes `return getattr(act, self.activation)() if
    self.nonlin else act`: the configured activation where nonlin, none where not."""
    change = "the configured activation where nonlin, none where not: `{line}`"

    def fix_call(self, fn, text):
        nonlin, activation = _init_attr(text, "nonlin"), _init_attr(text, "activation")
        lines = _lines(fn)
        assigned = [i for i, line in enumerate(lines) if isinstance(line, cst.SimpleStatementLine)
                    and isinstance(line.body[0], cst.Assign) and isinstance(line.body[0].targets[0].target, cst.Name)]
        if not nonlin or not activation or not assigned:
            return None
        act = lines[assigned[-1]].body[0].targets[0].target.value
        line = f"return getattr({act}, self.{activation})() if self.{nonlin} else {act}"
        self.change = self.change.format(line=line)
        tail = lines[assigned[-1] + 1:]
        new = stmt(line + "\n").with_changes(leading_lines=tail[0].leading_lines if tail else ())
        return _with(fn, lines[:assigned[-1] + 1] + [new])


class ReturnValueOfOne(MethodRepair):
    """layer_list_for_one / layer_unwrap_by_inputs: `return outs` -> `return outs[0] if len(outs) == 1 else outs`."""
    change = "the Value itself for a layer of one neuron: `{line}`"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        last = lines[-1] if lines else None
        if not isinstance(last, cst.SimpleStatementLine) or not isinstance(last.body[0], cst.Return):
            return updated
        value = last.body[0].value
        if isinstance(value, cst.IfExp) and isinstance(value.orelse, cst.Name):
            out = value.orelse.value
            added = []
        elif isinstance(value, cst.Name):
            out, added = value.value, []
        elif isinstance(value, (cst.ListComp, cst.List)):
            out = "out" if "out" not in names(updated) else "outs"
            added = [stmt(f"{out} = {code(value)}\n")]
        else:
            return updated
        line = f"return {out}[0] if len({out}) == 1 else {out}"
        self.change = self.change.format(line=line)
        self.mark(original.body.body[-1])
        new = added + [stmt(line + "\n")]
        new[0] = new[0].with_changes(leading_lines=last.leading_lines)  # the comments above it stay above it
        return _with(updated, lines[:-1] + new)


class ReturnAfterLoop(MethodRepair):
    """layer_first_neuron_only: the `return` inside the loop over the neurons moved after it."""
    change = "the `return` moved out of the loop"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        for i, line in enumerate(lines):
            inner = list(line.body.body) if isinstance(line, cst.For) else []
            if inner and isinstance(inner[-1], cst.SimpleStatementLine) and isinstance(inner[-1].body[0], cst.Return):
                ret = inner.pop()
                self.mark(first_return(original.body.body[i]))
                lines[i] = line.with_changes(body=line.body.with_changes(body=inner))
                lines.insert(i + 1, ret)
                return _with(updated, lines)
        return updated


def first_return(node):
    return first(node, lambda n: isinstance(n, cst.SimpleStatementLine) and isinstance(n.body[0], cst.Return))


class MLPRepair(MethodRepair):
    """A repair of the `Layer(...)` call in MLP.__init__ made for each `i in range(len(nouts))`."""
    def fix_method(self, original, updated):
        if original.name.value != "__init__":
            return updated
        lines = _lines(updated)
        for i, line in enumerate(lines):
            if "Layer(" in code(line) and "range(" in code(line):
                fixed = self.fix_line(line)
                if fixed is not None and code(fixed) != code(line):
                    self.mark(original.body.body[i])
                    lines[i] = fixed
                    return _with(updated, lines)
        return updated


def _loop(line) -> tuple[str, str] | None:
    """(i, nouts) of the line's `for i in range(len(nouts)...)`."""
    text = code(line)
    after = text.split(" for ", 1)[-1] if " for " in text else text.split("for ", 1)[-1]
    var = after.split(" in ", 1)[0].strip()
    if "range(len(" not in after or not var.isidentifier():
        return None
    return var, after.split("range(len(", 1)[1].split(")", 1)[0]


class _Layer(cst.CSTTransformer):
    def __init__(self, edit) -> None:
        super().__init__()
        self.edit = edit

    def leave_Call(self, original_node, updated_node):
        return self.edit(updated_node) if code(updated_node.func) == "Layer" else updated_node


class LastLayerLinear(MLPRepair):
    """wrong_activation (mlp): `nonlin=i != len(nouts) - 1` on every Layer: hidden layers nonlinear, the last linear."""
    change = "`nonlin={test}` for each layer"

    def fix_line(self, line):
        loop = _loop(line)
        if loop is None:
            return None
        test = f"{loop[0]} != len({loop[1]}) - 1"
        self.change = self.change.format(test=test)

        def edit(call):
            args = [a for a in call.args if not (a.keyword and a.keyword.value == "nonlin")]
            positional = [a for a in args if a.keyword is None and not a.star]
            new = cst.Arg(expr(test), keyword=cst.Name("nonlin"), equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
            every = [*positional, new, *args[len(positional):]]
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            return call.with_changes(args=[a.with_changes(comma=comma) for a in every[:-1]]
                                     + [every[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
        return line.visit(_Layer(edit))


class FanInFromPrevious(MLPRepair):
    """mlp_layer_sizes: `Layer(nin, sz[i+1], ...)` -> `Layer(sz[i], sz[i+1], ...)`."""
    change = "each layer's fan-in the previous layer's width, `{arg}`"

    def fix_line(self, line):
        loop = _loop(line)

        def edit(call):
            second = code(call.args[1].value) if len(call.args) > 1 else ""
            if loop is None or "[" not in second:
                return call
            arg = f"{second.split('[', 1)[0]}[{loop[0]}]"
            self.change = self.change.format(arg=arg)
            return call.with_changes(args=[call.args[0].with_changes(value=expr(arg)), *call.args[1:]])
        return line.visit(_Layer(edit))


class EveryLayer(MLPRepair):
    """mlp_missing_layer: `range(len(nouts) - 1)` -> `range(len(nouts))`."""
    change = "a layer for every entry, `range(len({n}))`"

    def fix_line(self, line):
        class Range(cst.CSTTransformer):
            def leave_Call(inner, original_node, updated_node):
                arg = updated_node.args[0].value if updated_node.args else None
                if code(updated_node.func) == "range" and isinstance(arg, cst.BinaryOperation) and \
                        isinstance(arg.operator, cst.Subtract) and code(arg.right) == "1":
                    self.change = self.change.format(n=code(arg.left)[4:-1])
                    return updated_node.with_changes(args=[updated_node.args[0].with_changes(value=arg.left)])
                return updated_node
        return line.visit(Range())


class FeedEveryLayer(Repair):
    """mlp_call_skips_layer: `for layer in self.layers[:-1]:` -> `for layer in self.layers:` in MLP.__call__."""
    change = "x fed through every layer, `{layers}`"

    def leave_Subscript(self, original_node, updated_node):
        frame = self.frame
        if self.method is None or frame.name != "__call__" or not isinstance(updated_node.value, cst.Attribute):
            return updated_node
        self.change = self.change.format(layers=code(updated_node.value))
        self.mark(original_node)
        return updated_node.value


REPAIRS = {
    "neuron": {"bias_missing": (AddBias,), "wrong_activation": (ApplyConfiguredActivation,)},
    "layer": {"layer_list_for_one": (ReturnValueOfOne,), "layer_unwrap_by_inputs": (ReturnValueOfOne,),
              "layer_first_neuron_only": (ReturnAfterLoop,)},
    "mlp": {"wrong_activation": (LastLayerLinear,), "mlp_layer_sizes": (FanInFromPrevious,),
            "mlp_missing_layer": (EveryLayer,), "mlp_call_skips_layer": (FeedEveryLayer,)},
    **nn_params.REPAIRS,
}
