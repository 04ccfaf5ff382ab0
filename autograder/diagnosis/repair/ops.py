"""The repairs of an operation's `_backward` closure (tasks add ... relu): one statement of the closure each.

A statement of the closure is one that sets an operand's grad (`self.grad += ...`, `other.grad = ...`),
the operands being the method's own parameters (`def __mul__(a, b)`: a and b), and the upstream grad
that of the node the method returns (`return out`). A repair edits only those statements, keeping the
rest of the line as the student wrote it.
"""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import Repair, code, expr, is_attr, owner, parenthesized, times

# each operand's local derivative, in the method's own names ({a}, {b}: its operands, {k}: the exponent,
# {out}: the node it returns); what a repair of a wrong local derivative writes
LOCAL = {
    "add": ("1", "1"),
    "mul": ("{b}.data", "{a}.data"),
    "pow": ("{k} * {a}.data**({k} - 1)",),
    "tanh": ("(1 - {out}.data**2)",),
    "exp": ("{out}.data",),
    "relu": ("({out}.data > 0)",),
}


class GradStatement(Repair):
    """The base of the closure's repairs: `fix` gets each statement that sets an operand's grad."""
    task = ""

    def names(self) -> tuple[tuple[str, ...], str]:
        """The operands (the method's parameters that are Values) and the node it returns."""
        method = self.method
        operands = method.params[:2] if self.task in ("add", "mul") else method.params[:1]
        return operands, method.returns or "out"

    def leave_AugAssign(self, original_node, updated_node):
        return self._visit(original_node, updated_node)

    def leave_Assign(self, original_node, updated_node):
        return self._visit(original_node, updated_node)

    def _visit(self, original, updated):
        if not self.in_closure or not self.method.params:
            return updated
        target = updated.target if isinstance(updated, cst.AugAssign) else (
            updated.targets[0].target if len(updated.targets) == 1 else None)
        operands, out = self.names()
        if not is_attr(target, "grad") or owner(target) not in operands:
            return updated
        fixed = self.fix(updated, owner(target), operands, out)
        if fixed is None or code(fixed) == code(updated):
            return updated
        self.mark(original)
        return fixed

    def fix(self, statement, operand: str, operands: tuple[str, ...], out: str):
        raise NotImplementedError


def upstream_split(value: cst.BaseExpression, out: str) -> tuple[cst.BaseExpression, bool]:
    """(the local part, True) of `<local> * out.grad`; (value, False) when it is not of that form."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply) and \
            is_attr(value.right, "grad", out):
        return value.left, True
    return value, False


def with_local(statement, local: cst.BaseExpression, out: str):
    """The statement with its value's local part replaced (its `* out.grad` kept)."""
    value = statement.value
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply) and \
            is_attr(value.right, "grad", out):
        return statement.with_changes(value=value.with_changes(left=local))
    return statement.with_changes(value=times(local, expr(f"{out}.grad")))


class Replace(cst.CSTTransformer):
    """Replace every `<name>.<attr>` of a table {(name, attr): expression}."""
    def __init__(self, table: dict) -> None:
        super().__init__()
        self.table = table

    def leave_Attribute(self, original_node, updated_node):
        found = self.table.get((owner(updated_node), updated_node.attr.value))
        return found if found is not None and isinstance(updated_node.value, cst.Name) else updated_node


class UseAddAssign(GradStatement):
    """overwrites_grad: `x.grad = d * out.grad` -> `x.grad += d * out.grad`."""
    change = "`+=` in place of `=`"

    def fix(self, statement, operand, operands, out):
        if not isinstance(statement, cst.Assign) or f"{operand}.grad" in code(statement.value):
            return None
        return cst.AugAssign(statement.targets[0].target, cst.AddAssign(), statement.value)


class MultiplyByUpstream(GradStatement):
    """missing_upstream_grad: `x.grad += d` -> `x.grad += d * out.grad`."""
    change = "the local derivative multiplied by `{out}.grad`"

    def fix(self, statement, operand, operands, out):
        if f"{out}.grad" in code(statement.value) or not isinstance(statement, cst.AugAssign):
            return None
        self.change = self.change.format(out=out)
        return statement.with_changes(value=times(statement.value, expr(f"{out}.grad")))


class UseOtherOperandsData(GradStatement):
    """swapped_operands: `a.grad += a.data * out.grad` -> `a.grad += b.data * out.grad`."""
    change = "each operand's grad made of the other operand's data"

    def fix(self, statement, operand, operands, out):
        if len(operands) != 2:
            return None
        other = operands[1] if operand == operands[0] else operands[0]
        return statement.with_changes(value=statement.value.visit(Replace({(operand, "data"): expr(f"{other}.data")})))


class DataForGrad(GradStatement):
    """grad_for_data: `a.grad += b.grad * out.grad` -> `a.grad += b.data * out.grad`."""
    change = "`.data` in place of `.grad` in the local derivative"

    def fix(self, statement, operand, operands, out):
        local, split = upstream_split(statement.value, out)
        if not split:
            return None
        names = (*operands, out)
        repaired = local.visit(Replace({(n, "grad"): expr(f"{n}.data") for n in names}))
        return with_local(statement, repaired, out)


class DerivativeAtOutput(GradStatement):
    """derivative_at_input: `a.grad += (1 - a.data**2) * out.grad` -> `(1 - out.data**2) * out.grad`."""
    change = "the derivative taken at the output, `{out}.data`"

    def fix(self, statement, operand, operands, out):
        local, split = upstream_split(statement.value, out)
        if not split or f"{operand}.data" not in code(local):
            return None
        self.change = self.change.format(out=out)
        return with_local(statement, local.visit(Replace({(operand, "data"): expr(f"{out}.data")})), out)


class Parenthesize(GradStatement):
    """operator_precedence: `1 - t**2 * out.grad` -> `(1 - t**2) * out.grad`; `a.data**k-1` -> `a.data**(k-1)`."""
    change = "parentheses"

    def fix(self, statement, operand, operands, out):
        value = statement.value
        power = _exponent_minus(value, out)
        if power is not None:
            return statement.with_changes(value=power)
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)) and \
                not value.right.lpar and upstream_split(value.right, out)[1]:
            inner = value.with_changes(right=value.right.left)
            return statement.with_changes(value=times(inner, value.right.right))
        return None


def _exponent_minus(value, out):
    """`c * x**k - 1 * out.grad` -> `c * x**(k - 1) * out.grad`: the `- 1` belongs to the exponent."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Subtract)):
        return None
    left, right = value.left, value.right
    local, split = upstream_split(right, out)
    if not split or not isinstance(local, (cst.Integer, cst.Float)):
        return None
    last = left.right if isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Multiply) else left
    if not isinstance(last, cst.BinaryOperation) or not isinstance(last.operator, cst.Power):
        return None
    exponent = expr(f"({code(last.right)} - {code(local)})")
    lowered = last.with_changes(right=exponent)
    base = left.with_changes(right=lowered) if last is not left else lowered
    return times(base, right.right)


class StrictAtZero(GradStatement):
    """relu_gradient_at_zero: `(a.data >= 0)` -> `(a.data > 0)`; `0 if a.data < 0 else 1` -> `<= 0`."""
    change = "a strict test at 0 (the derivative there is 0)"

    def fix(self, statement, operand, operands, out):
        class Strict(cst.CSTTransformer):
            def leave_ComparisonTarget(self, original_node, updated_node):
                flip = {cst.GreaterThanEqual: cst.GreaterThan, cst.LessThan: cst.LessThanEqual}.get(
                    type(updated_node.operator))
                if flip is None or code(updated_node.comparator) not in ("0", "0.0"):
                    return updated_node
                return updated_node.with_changes(operator=flip(
                    whitespace_before=updated_node.operator.whitespace_before,
                    whitespace_after=updated_node.operator.whitespace_after))
        return statement.with_changes(value=statement.value.visit(Strict()))


class RightLocalDerivative(GradStatement):
    """wrong_local_derivative: the local derivative replaced by the operation's own, in the student's names."""
    change = "the local derivative {local}"

    def fix(self, statement, operand, operands, out):
        formulas = LOCAL.get(self.task)
        if formulas is None or len(formulas) != len(operands):
            return None
        names = {"a": operands[0], "b": operands[-1], "k": self.method.params[1] if len(self.method.params) > 1
                 else "", "out": out}
        local = formulas[operands.index(operand)].format(**names)
        if "{k}" in formulas[0] and not names["k"]:
            return None
        self.change = f"the local derivative `{local}`"
        if local == "1":
            return statement.with_changes(value=expr(f"{out}.grad"))
        return with_local(statement, parenthesized(expr(local), True), out)


class AddOtherOperandsGrad(Repair):
    """one_operand_only: the closure sets one operand's grad: the other's added after it, the same statement
    with the two operands' names swapped (`a.grad += b.data * res.grad` -> `b.grad += a.data * res.grad`)."""
    change = "the other operand's grad added"

    def leave_function(self, original_node, updated_node):
        method = self.method
        if method is None or original_node is method.node or len(method.params) < 2:
            return updated_node
        a, b = method.params[:2]
        lines = list(updated_node.body.body)
        targets = {owner(s.target) for line in lines if isinstance(line, cst.SimpleStatementLine)
                   for s in line.body if isinstance(s, cst.AugAssign) and is_attr(s.target, "grad")}
        if len(targets & {a, b}) != 1:
            return updated_node
        have = (targets & {a, b}).pop()
        for i, line in enumerate(lines):
            if isinstance(line, cst.SimpleStatementLine) and any(
                    isinstance(s, cst.AugAssign) and owner(s.target) == have for s in line.body):
                mirrored = line.visit(_Swap(a, b)).with_changes(leading_lines=[])
                self.mark(original_node.body.body[i])
                lines.insert(i + 1, mirrored)
                return updated_node.with_changes(body=updated_node.body.with_changes(body=lines))
        return updated_node


class _Swap(cst.CSTTransformer):
    def __init__(self, a: str, b: str) -> None:
        super().__init__()
        self.pair = {a: b, b: a}

    def leave_Name(self, original_node, updated_node):
        return updated_node.with_changes(value=self.pair.get(updated_node.value, updated_node.value))


def for_task(task: str, *repairs: type[GradStatement]) -> tuple[type, ...]:
    """The repairs, bound to the task whose local derivatives they write."""
    return tuple(type(r.__name__, (r,), {"task": task}) if issubclass(r, GradStatement) else r for r in repairs)


REPAIRS = {
    "overwrites_grad": (UseAddAssign,),
    "missing_upstream_grad": (MultiplyByUpstream,),
    "one_operand_only": (AddOtherOperandsGrad,),
    "swapped_operands": (UseOtherOperandsData,),
    "grad_for_data": (DataForGrad,),
    "derivative_at_input": (DerivativeAtOutput,),
    "operator_precedence": (Parenthesize,),
    "relu_gradient_at_zero": (StrictAtZero,),
    "wrong_local_derivative": (RightLocalDerivative,),
}
