"""The repairs of the loss and the training loop (tasks mse_loss, train): mse_loss(predictions, targets) and
train(model, xs, ys, steps, lr), by the names of their own parameters."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import (MethodRepair, Repair, code, expr, first, insert_before, is_attr, names,
                                              parenthesized, stmt)
from autograder.diagnosis.repair.train_loop import LOOP_REPAIRS


class DivideByCount(MethodRepair):
    """mse_not_mean: `return total` -> `return total / len(predictions)`; `/ (len(p) - 1)` -> `/ len(p)`."""
    change = "the sum divided by the count, `/ len({p})`"

    def fix_method(self, original, updated):
        p = updated.params.params[0].name.value if updated.params.params else None
        ret = first(updated.body, lambda n: isinstance(n, cst.Return))
        old = first(original.body, lambda n: isinstance(n, cst.SimpleStatementLine) and isinstance(n.body[0], cst.Return))
        if p is None or ret is None or ret.value is None or old is None:
            return updated
        value = ret.value
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Divide):
            if "len(" not in code(value.right) or code(value.right) == f"len({p})":
                return updated
            fixed = value.with_changes(right=expr(f"len({p})"))
        else:
            fixed = cst.BinaryOperation(parenthesized(value), cst.Divide(
                whitespace_before=cst.SimpleWhitespace(" "), whitespace_after=cst.SimpleWhitespace(" ")),
                expr(f"len({p})"))
        self.change = self.change.format(p=p)
        self.mark(old)
        return updated.deep_replace(ret, ret.with_changes(value=fixed))


class SquareEachError(Repair):
    """mse_not_squared: `(p - t)` -> `(p - t)**2` inside the sum."""
    change = "each error squared, `{line}`"

    def leave_GeneratorExp(self, original_node, updated_node):
        elt = updated_node.elt
        if self.method is None or not isinstance(elt, cst.BinaryOperation) or \
                not isinstance(elt.operator, cst.Subtract):
            return updated_node
        squared = expr(f"({code(elt.with_changes(lpar=[], rpar=[]))})**2")
        self.change = self.change.format(line=code(squared))
        self.mark(original_node)
        return updated_node.with_changes(elt=squared)


class NoSquareRoot(Repair):
    """mse_absolute: `((p - t)**2)**0.5` -> `(p - t)**2`; `abs(p - t)` -> `(p - t)**2`."""
    change = "the squared error, with no square root or abs()"

    def leave_BinaryOperation(self, original_node, updated_node):
        if self.method is not None and isinstance(updated_node.operator, cst.Power) and \
                code(updated_node.right) in ("0.5", ".5", "(1/2)", "(1 / 2)"):
            self.mark(original_node)
            return updated_node.left.with_changes(lpar=[], rpar=[])
        return updated_node

    def leave_Call(self, original_node, updated_node):
        if self.method is not None and code(updated_node.func) in ("abs", "math.sqrt") and len(updated_node.args) == 1:
            self.mark(original_node)
            inner = updated_node.args[0].value
            return inner.with_changes(lpar=[], rpar=[]) if code(updated_node.func) == "math.sqrt" else \
                expr(f"({code(inner)})**2")
        return updated_node


class AverageEveryPoint(MethodRepair):
    """mse_first_point_only: `(predictions[0] - targets[0])**2` -> the mean over every point of the same error."""
    change = "every point's error averaged, `{line}`"

    def fix_method(self, original, updated):
        params = [q.name.value for q in updated.params.params]
        ret = first(updated.body, lambda n: isinstance(n, cst.Return))
        if len(params) < 2 or ret is None or ret.value is None:
            return updated
        p, t = params[:2]
        text = code(ret.value)
        if f"{p}[0]" not in text or f"{t}[0]" not in text or "sum(" in text:
            return updated
        used = names(updated)
        a, b = ("p", "t") if not {"p", "t"} & used else ("p_", "t_")
        one = text.replace(f"{p}[0]", a).replace(f"{t}[0]", b)
        line = f"sum({one} for {a}, {b} in zip({p}, {t})) / len({p})"
        self.change = self.change.format(line=line)
        self.mark(first(original.body, lambda n: isinstance(n, cst.SimpleStatementLine)
                        and isinstance(n.body[0], cst.Return)))
        return updated.deep_replace(ret, ret.with_changes(value=expr(line)))


def _steps_loop(fn):
    return next((line for line in fn.body.body if isinstance(line, cst.For) and "range(" in code(line.iter)), None)


def _is_call(line, method: str) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr) and \
        isinstance(line.body[0].value, cst.Call) and is_attr(line.body[0].value.func, method)


class ZeroGradFirst(MethodRepair):
    """zero_grad_missing (train) / zero_grad_after_backward: `model.zero_grad()` first in each step."""
    change = "`{model}.zero_grad()` first in each step"

    def fix_method(self, original, updated):
        loop = _steps_loop(updated)
        if loop is None or not updated.params.params:
            return updated
        model = updated.params.params[0].name.value
        body = [line for line in loop.body.body if not _is_call(line, "zero_grad")]
        insert_before(body, 0, stmt(f"{model}.zero_grad()\n"))  # under the comments above the step's first line
        self.change = self.change.format(model=model)
        self.mark(_steps_loop(original))
        return updated.deep_replace(loop, loop.with_changes(body=loop.body.with_changes(body=body)))


class Update(Repair):
    """The base of the update's repairs: `fix` gets each statement that sets a parameter's `.data`."""
    def leave_AugAssign(self, original_node, updated_node):
        return self._visit(original_node, updated_node)

    def leave_Assign(self, original_node, updated_node):
        return self._visit(original_node, updated_node)

    def _visit(self, original, updated):
        target = updated.target if isinstance(updated, cst.AugAssign) else updated.targets[0].target
        if self.method is None or not is_attr(target, "data"):
            return updated
        fixed = self.fix(updated, self.method.params)
        if fixed is None or code(fixed) == code(updated):
            return updated
        self.mark(original)
        return fixed


class DescendGradient(Update):
    """update_sign: `p.data += lr * p.grad` -> `-=`; `p.data = p.data + lr * p.grad` -> `p.data - lr * p.grad`."""
    change = "a step down the gradient, `-`"

    def fix(self, statement, params):
        if ".grad" not in code(statement.value):
            return None
        if isinstance(statement, cst.AugAssign) and isinstance(statement.operator, cst.AddAssign):
            return statement.with_changes(operator=cst.SubtractAssign())
        value = statement.value
        if isinstance(statement, cst.Assign) and isinstance(value, cst.BinaryOperation) and \
                isinstance(value.operator, cst.Add):
            return statement.with_changes(value=value.with_changes(operator=cst.Subtract(
                whitespace_before=value.operator.whitespace_before, whitespace_after=value.operator.whitespace_after)))
        return None


class UseLearningRate(Update):
    """learning_rate_ignored: `0.05 * p.grad` -> `lr * p.grad` (`-0.01` -> `-lr`)."""
    change = "the step `{lr}` it is given, not a number"

    def fix(self, statement, params):
        if len(params) < 5 or ".grad" not in code(statement.value):
            return None
        lr = params[4]
        self.change = self.change.format(lr=lr)

        class Rate(cst.CSTTransformer):
            def leave_Float(self, original_node, updated_node):
                return cst.Name(lr)

            def leave_Integer(self, original_node, updated_node):
                return cst.Name(lr)
        return statement.with_changes(value=statement.value.visit(Rate()))


class UseGradient(Update):
    """update_uses_data: `lr * p.data` -> `lr * p.grad` in the update."""
    change = "the gradient in the step, `.grad` in place of `.data`"

    def fix(self, statement, params):
        value = statement.value
        step = value.right if isinstance(statement, cst.Assign) and isinstance(value, cst.BinaryOperation) else value
        if ".data" not in code(step):
            return None

        class Grad(cst.CSTTransformer):
            def leave_Attribute(self, original_node, updated_node):
                return updated_node.with_changes(attr=cst.Name("grad")) if updated_node.attr.value == "data" \
                    else updated_node
        return statement.deep_replace(step, step.visit(Grad()))


REPAIRS = {
    "mse_loss": {"mse_not_mean": (DivideByCount,), "mse_not_squared": (SquareEachError,),
                 "mse_absolute": (NoSquareRoot,), "mse_first_point_only": (AverageEveryPoint,)},
    "train": {"zero_grad_missing": (ZeroGradFirst,), "zero_grad_after_backward": (ZeroGradFirst,),
              "update_sign": (DescendGradient,), "learning_rate_ignored": (UseLearningRate,),
              "update_uses_data": (UseGradient,), **LOOP_REPAIRS},
}
