"""The repairs of an operation's forward code: how its closure is attached, how a number is wrapped, its
reflected form (tasks add ... relu). Each edits the method itself (`__mul__`), not the closure's body."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import MethodRepair, Repair, code, insert_before, is_attr, owner, stmt
from autograder.tasks import OPS


def _closures(body) -> list[cst.FunctionDef]:
    return [line for line in body.body if isinstance(line, cst.FunctionDef)]


def _attached(body) -> list[tuple[int, cst.Assign]]:
    """(index, `x._backward = f`) of the method's body."""
    return [(i, s) for i, line in enumerate(body.body) if isinstance(line, cst.SimpleStatementLine)
            for s in line.body if isinstance(s, cst.Assign) and len(s.targets) == 1
            and is_attr(s.targets[0].target, "_backward")]


def _returns(node: cst.FunctionDef) -> str | None:
    for line in node.body.body:
        if isinstance(line, cst.SimpleStatementLine):
            for s in line.body:
                if isinstance(s, cst.Return) and isinstance(s.value, cst.Name):
                    return s.value.value
    return None


class AttachClosure(MethodRepair):
    """closure_does_nothing: a closure defined and never attached: `out._backward = _backward` after it."""
    change = "the closure attached to its node, `{out}._backward = {name}`"

    def fix_method(self, original, updated):
        out = _returns(updated)
        closures = _closures(updated.body)
        if out is None or len(closures) != 1 or _attached(updated.body):
            return updated
        name = closures[0].name.value
        lines = list(updated.body.body)
        at = lines.index(closures[0])
        self.change = self.change.format(out=out, name=name)
        self.mark(original.body.body[at])
        lines.insert(at + 1, stmt(f"{out}._backward = {name}\n"))
        return updated.with_changes(body=updated.body.with_changes(body=lines))


class AttachToOutput(MethodRepair):
    """closure_on_operand: `self._backward = _backward` -> `out._backward = _backward`."""
    change = "the closure attached to the node it belongs to, `{out}._backward`"

    def fix_method(self, original, updated):
        out = _returns(updated)
        wrong = [(i, s) for i, s in _attached(updated.body) if owner(s.targets[0].target) != out]
        if out is None or not wrong:
            return updated
        lines = list(updated.body.body)
        for i, s in wrong:
            line = lines[i]
            fixed = s.with_changes(targets=[s.targets[0].with_changes(
                target=s.targets[0].target.with_changes(value=cst.Name(out)))])
            lines[i] = line.with_changes(body=[fixed if x is s else x for x in line.body])
            self.mark(original.body.body[i])
        self.change = self.change.format(out=out)
        return updated.with_changes(body=updated.body.with_changes(body=lines))


class WrapNumber(MethodRepair):
    """number_not_wrapped: `other = other if isinstance(other, Value) else Value(other)` first in the method."""
    change = "a number wrapped first, `{line}`"

    def fix_method(self, original, updated):
        params = [p.name.value for p in updated.params.params]
        cls = _made_by(updated) or self.class_here()
        if len(params) < 2 or cls is None or f"isinstance({params[1]}" in code(updated):
            return updated
        other = params[1]
        line = f"{other} = {other} if isinstance({other}, {cls}) else {cls}({other})"
        lines = list(updated.body.body)
        first = 1 if lines and _is_docstring(lines[0]) else 0
        self.change = self.change.format(line=line)
        self.mark(original.body.body[min(first, len(lines) - 1)])
        insert_before(lines, first, stmt(line + "\n"))
        return updated.with_changes(body=updated.body.with_changes(body=lines))


def _made_by(node: cst.FunctionDef) -> str | None:
    """The class the method builds its result with (`out = Value(...)`)."""
    out = _returns(node)
    for line in node.body.body:
        if isinstance(line, cst.SimpleStatementLine):
            for s in line.body:
                if isinstance(s, cst.Assign) and code(s.targets[0].target) == out and isinstance(s.value, cst.Call) \
                        and isinstance(s.value.func, cst.Name):
                    return s.value.func.value
    return None


def _is_docstring(line) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr) and \
        isinstance(line.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


class AddReflectedMethod(Repair):
    """reflected_op_missing: `def __radd__(self, other): return self + other` added after `__add__`."""
    change = "`{reflected}` added after `{method}`"
    task = ""

    def leave_class(self, original_node, updated_node):
        op = OPS[self.task]
        lines = list(updated_node.body.body)
        names = [line.name.value for line in lines if isinstance(line, cst.FunctionDef)]
        if op.method not in names or op.reflected in names:
            return updated_node
        at = names.index(op.method)
        index = [i for i, line in enumerate(lines) if isinstance(line, cst.FunctionDef)][at]
        method = lines[index]
        params = [p.name.value for p in method.params.params][:2]
        if len(params) < 2:
            return updated_node
        a, b = params
        added = cst.parse_statement(f"def {op.reflected}({a}, {b}):\n    return {a} {op.symbol} {b}\n")
        self.change = self.change.format(reflected=op.reflected, method=op.method)
        self.mark(original_node.body.body[index])
        lines.insert(index + 1, added.with_changes(leading_lines=[cst.EmptyLine()]))
        return updated_node.with_changes(body=updated_node.body.with_changes(body=lines))


REPAIRS = {
    "closure_does_nothing": (AttachClosure,),
    "closure_on_operand": (AttachToOutput,),
    "number_not_wrapped": (WrapNumber,),
    "reflected_op_missing": (AddReflectedMethod,),
}
