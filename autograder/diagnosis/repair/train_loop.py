"""The repairs of what train's loop records and how often it runs (task train)."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import MethodRepair, Repair, code, expr, first, is_attr


def _backward_of(fn) -> str | None:
    """The name backward() is called on in the loop (`loss.backward()` -> "loss")."""
    call = first(fn.body, lambda n: isinstance(n, cst.Call) and is_attr(n.func, "backward"))
    return call.func.value.value if call is not None else None


class RecordStepsLoss(MethodRepair):
    """loss_after_update: `losses.append(<a loss computed again>)` -> `losses.append(loss.data)`."""
    change = "this step's loss recorded, `{line}`"

    def fix_method(self, original, updated):
        loss = _backward_of(updated)
        call = first(updated.body, lambda n: isinstance(n, cst.Call) and is_attr(n.func, "append")
                     and len(n.args) == 1 and loss is not None and code(n.args[0].value) != f"{loss}.data")
        if call is None:
            return updated
        line = f"{code(call.func)}({loss}.data)"
        self.change = self.change.format(line=line)
        self.mark(first(original.body, lambda n: isinstance(n, cst.SimpleStatementLine)
                        and f"{code(call.func)}(" in code(n)))
        return updated.deep_replace(call, expr(line))


class EveryStep(Repair):
    """steps_off_by_one: `range(steps - 1)` -> `range(steps)`."""
    change = "every step run, `range({steps})`"

    def leave_Call(self, original_node, updated_node):
        arg = updated_node.args[0].value if len(updated_node.args) == 1 else None
        if self.method is None or code(updated_node.func) != "range" or not isinstance(arg, cst.BinaryOperation) \
                or not isinstance(arg.operator, cst.Subtract) or code(arg.right) != "1":
            return updated_node
        self.change = self.change.format(steps=code(arg.left))
        self.mark(original_node)
        return updated_node.with_changes(args=[updated_node.args[0].with_changes(value=arg.left)])


class RecordOncePerStep(Repair):
    """loss_per_parameter: `losses.append(...)` moved out of the loop over the parameters, after it."""
    change = "the loss recorded once per step, after the update"

    def leave_IndentedBlock(self, original_node, updated_node):
        if self.method is None:
            return updated_node
        lines = list(updated_node.body)
        for i, line in enumerate(lines):
            if isinstance(line, cst.For) and "parameters()" in code(line.iter):
                inner = list(line.body.body)
                appends = [j for j, s in enumerate(inner) if "append(" in code(s)]
                if not appends:
                    continue
                moved = inner.pop(appends[-1])
                self.mark(first(original_node.body[i], lambda n: isinstance(n, cst.SimpleStatementLine)
                                and "append(" in code(n)))
                lines[i] = line.with_changes(body=line.body.with_changes(body=inner))
                lines.insert(i + 1, moved)
                return updated_node.with_changes(body=lines)
        return updated_node


LOOP_REPAIRS = {"loss_after_update": (RecordStepsLoss,), "steps_off_by_one": (EveryStep,),
                "loss_per_parameter": (RecordOncePerStep,)}
