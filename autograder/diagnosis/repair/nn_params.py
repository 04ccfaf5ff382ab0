"""The repairs of parameters() and zero_grad() (tasks parameters, zero_grad)."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import Repair, code, expr, is_attr, stmt


class ListBias(Repair):
    """bias_missing (parameters): Neuron's `return self.w` -> `return self.w + [self.b]`."""
    change = "the bias listed after the weights, `{line}`"
    bias = "b"
    everywhere = True

    def visit_Assign(self, node: cst.Assign) -> None:
        frame = self.frame  # the attribute Neuron.__init__ keeps a single Value in: the bias
        if frame and frame.cls == "Neuron" and frame.name == "__init__" and len(node.targets) == 1 and \
                is_attr(node.targets[0].target, node.targets[0].target.attr.value if isinstance(
                    node.targets[0].target, cst.Attribute) else "", "self") and isinstance(node.value, cst.Call):
            self.bias = node.targets[0].target.attr.value

    def leave_Return(self, original_node, updated_node):
        value = updated_node.value
        if self.method is None or self.frame.cls != "Neuron" or not isinstance(value, cst.Attribute) or \
                code(value) == f"self.{self.bias}" or not code(value).startswith("self."):
            return updated_node
        line = f"{code(value)} + [self.{self.bias}]"
        self.change = self.change.format(line=f"return {line}")
        self.mark(original_node)
        return updated_node.with_changes(value=expr(line))


class ParametersInOrder(Repair):
    """parameter_order: `[self.b] + self.w` -> `self.w + [self.b]`; `reversed(self.layers)` -> `self.layers`."""
    change = "the parameters in order: {what}"

    def leave_BinaryOperation(self, original_node, updated_node):
        if self.method is None or not isinstance(updated_node.operator, cst.Add) or \
                not isinstance(updated_node.left, cst.List) or isinstance(updated_node.right, cst.List):
            return updated_node
        self.mark(original_node)
        self.change = self.change.format(what="the weights first, then the bias")
        return updated_node.with_changes(left=updated_node.right, right=updated_node.left)

    def leave_Call(self, original_node, updated_node):
        if self.method is None or code(updated_node.func) != "reversed" or len(updated_node.args) != 1:
            return updated_node
        self.mark(original_node)
        self.change = self.change.format(what="layer by layer from the first")
        return updated_node.args[0].value


class EveryNeuronsParameters(Repair):
    """parameters_incomplete: `self.neurons[0].parameters()` -> `[p for n in self.neurons for p in n.parameters()]`."""
    change = "every neuron's parameters, `{line}`"

    def leave_Call(self, original_node, updated_node):
        func = updated_node.func
        if self.method is None or not isinstance(func, cst.Attribute) or func.attr.value != "parameters" or \
                not isinstance(func.value, cst.Subscript):
            return updated_node
        neurons = code(func.value.value)
        line = f"[p for n in {neurons} for p in n.parameters()]"
        self.change = self.change.format(line=line)
        self.mark(original_node)
        return expr(line)


class OwnValues(Repair):
    """parameters_copies: `Value(w.data)` -> `w`: the model's own Values, not copies."""
    change = "the model's own Values, not new ones"

    def leave_Call(self, original_node, updated_node):
        arg = updated_node.args[0].value if len(updated_node.args) == 1 else None
        if self.method is None or not isinstance(arg, cst.Attribute) or arg.attr.value != "data" \
                or not isinstance(updated_node.func, cst.Name):
            return updated_node
        self.mark(original_node)
        return updated_node.args[0].value.value


class AssignZeroGrad(Repair):
    """zero_grad_missing (zero_grad): `p.grad == 0` -> `p.grad = 0`."""
    change = "`=` in place of `==`, `{line}`"

    def leave_Expr(self, original_node, updated_node):
        value = updated_node.value
        if self.method is None or not isinstance(value, cst.Comparison) or not is_attr(value.left, "grad") or \
                len(value.comparisons) != 1 or not isinstance(value.comparisons[0].operator, cst.Equal):
            return updated_node
        line = f"{code(value.left)} = {code(value.comparisons[0].comparator)}"
        self.change = self.change.format(line=line)
        self.mark(original_node)
        return stmt(line + "\n").body[0]


class ResetGradNotData(Repair):
    """zero_grad_resets_data: `p.data = 0` -> `p.grad = 0`."""
    change = "the grad reset, not the data: `{line}`"

    def leave_Assign(self, original_node, updated_node):
        target = updated_node.targets[0].target
        if self.method is None or len(updated_node.targets) != 1 or not is_attr(target, "data"):
            return updated_node
        line = f"{target.value.value}.grad = {code(updated_node.value)}"
        self.change = self.change.format(line=line)
        self.mark(original_node)
        return updated_node.with_changes(targets=[updated_node.targets[0].with_changes(
            target=target.with_changes(attr=cst.Name("grad")))])


class ResetEveryParameter(Repair):
    """zero_grad_first_only: `params[0].grad = 0` -> `for p in params: p.grad = 0`."""
    change = "every parameter reset, `{line}`"

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if self.method is None or len(updated_node.body) != 1 or not isinstance(updated_node.body[0], cst.Assign):
            return updated_node
        target = updated_node.body[0].targets[0].target
        if not (isinstance(target, cst.Attribute) and target.attr.value == "grad"
                and isinstance(target.value, cst.Subscript)):
            return updated_node
        params = code(target.value.value)
        line = f"for p in {params}: p.grad = {code(updated_node.body[0].value)}"
        self.change = self.change.format(line=line)
        self.mark(original_node)
        loop = cst.parse_statement(f"for p in {params}:\n    p.grad = {code(updated_node.body[0].value)}\n")
        return cst.FlattenSentinel([loop.with_changes(leading_lines=updated_node.leading_lines)])


REPAIRS = {
    "parameters": {"bias_missing": (ListBias,), "parameter_order": (ParametersInOrder,),
                   "parameters_incomplete": (EveryNeuronsParameters,), "parameters_copies": (OwnValues,)},
    "zero_grad": {"zero_grad_missing": (AssignZeroGrad,), "zero_grad_resets_data": (ResetGradNotData,),
                  "zero_grad_first_only": (ResetEveryParameter,)},
}
