"""The repairs of a backward() that walks the graph once per path instead of in topological order (task backward,
no_topological_order): a recursion that calls each node's closure as it reaches it, or a stack walk that lists
a node again each time it is reached."""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import MethodRepair, code, insert_before, names, stmt


def _calls_closure(line, v: str) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and code(line.body[0]).strip() == f"{v}._backward()"


class WalkInTopologicalOrder(MethodRepair):
    """A recursion `def go(v): v._backward(); for c in v._prev: go(c)` becomes the order it should walk: go lists
    each node once, after its children, and the closures are called from the output back."""
    change = "a topological order: `{go}` lists each node once, after its children, and `{walk}` calls the closures"

    def fix_method(self, original, updated):
        lines = list(updated.body.body)
        for i, fn in enumerate(lines):
            if not isinstance(fn, cst.FunctionDef) or not fn.params.params or f"{fn.name.value}(" not in code(fn.body):
                continue
            v, go = fn.params.params[0].name.value, fn.name.value
            body = [line for line in fn.body.body if not _calls_closure(line, v)]
            call = next((j for j, line in enumerate(lines) if j > i and isinstance(line, cst.SimpleStatementLine)
                         and code(line.body[0]).strip().startswith(f"{go}(")), None)
            if len(body) == len(fn.body.body) or call is None:
                continue
            used = names(updated)
            topo, seen = ("topo" if "topo" not in used else "order"), ("visited" if "visited" not in used else "seen")
            check = cst.parse_statement(f"if {v} not in {seen}:\n    {seen}.add({v})\n")
            check = check.with_changes(body=check.body.with_changes(
                body=[*check.body.body, *body, stmt(f"{topo}.append({v})\n")]))
            lines[i] = fn.with_changes(body=fn.body.with_changes(body=[check]))
            walk = f"for {v} in reversed({topo}):\n    {v}._backward()\n"
            lines.insert(call + 1, cst.parse_statement(walk))
            insert_before(lines, i, stmt(f"{topo}, {seen} = [], set()\n"))
            self.change = self.change.format(go=go, walk=f"for {v} in reversed({topo})")
            self.mark(original.body.body[i])
            return updated.with_changes(body=updated.body.with_changes(body=lines))
        return updated


class CheckVisited(MethodRepair):
    """A walk that marks nodes visited (`visited.add(v)`) under a test that never asks: the test becomes
    `v not in visited`, so that each node is listed once."""
    change = "the visited check, `{test}`"

    def fix_method(self, original, updated):
        class Test(cst.CSTTransformer):
            test = ""

            def leave_If(self, original_node, updated_node):
                adds = [s for line in updated_node.body.body if isinstance(line, cst.SimpleStatementLine)
                        for s in line.body if isinstance(s, cst.Expr) and isinstance(s.value, cst.Call)
                        and code(s.value.func).endswith(".add") and len(s.value.args) == 1]
                if self.test or not adds or " in " in code(updated_node.test):
                    return updated_node
                seen, v = code(adds[0].value.func)[:-4], code(adds[0].value.args[0].value)
                self.test = f"{v} not in {seen}"
                return updated_node.with_changes(test=cst.parse_expression(self.test))
        test = Test()
        fixed = updated.visit(test)
        if not test.test:
            return updated
        self.change = self.change.format(test=test.test)
        self.mark(original)
        return fixed
