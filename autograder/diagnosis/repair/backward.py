"""The repairs of backward(): its walk of the graph, its seed (task backward).

backward() is the Value's method of that name; in it, the walk is the loop that calls the closures
(`for v in reversed(topo): v._backward()`) and the topological order is built by a function it defines
that calls itself on a node's children (`build_topo`). Each repair edits one of those, by the names
the student gave them.
"""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.backward_walk import CheckVisited, WalkInTopologicalOrder
from autograder.diagnosis.repair.base import MethodRepair, Repair, code, expr, first, insert_before, is_attr, names, owner, stmt


def _lines(fn) -> list:
    return list(fn.body.body)


def _with_lines(fn, lines):
    return fn.with_changes(body=fn.body.with_changes(body=lines))


def _walk(lines) -> int | None:
    """The index of the loop that calls the closures."""
    return next((i for i, line in enumerate(lines) if isinstance(line, cst.For) and "._backward()" in code(line.body)),
                None)


def _builders(lines) -> list[int]:
    """The indexes of the functions the method defines that call themselves (a depth-first walk)."""
    return [i for i, line in enumerate(lines) if isinstance(line, cst.FunctionDef)
            and f"{line.name.value}(" in code(line.body)]


def _appended(fn) -> str | None:
    """The list the builder appends nodes to (`topo` of `topo.append(v)`)."""
    text = code(fn.body)
    param = fn.params.params[0].name.value if fn.params.params else None
    for name in sorted(names(fn)):
        if f"{name}.append({param})" in text:
            return name
    return None


def _is_append(line, of: str | None = None) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr) \
        and isinstance(line.body[0].value, cst.Call) and is_attr(line.body[0].value.func, "append", of)


def _recurses(line, name: str) -> bool:
    return isinstance(line, cst.For) and f"{name}(" in code(line.body)


class WalkReversed(MethodRepair):
    """topo_not_reversed: `for v in topo:` -> `for v in reversed(topo):`, the walk from the output back."""
    change = "the walk reversed, `reversed({topo})`"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        at = _walk(lines)
        if at is None or not isinstance(lines[at].iter, cst.Name):
            return updated
        self.change = self.change.format(topo=lines[at].iter.value)
        self.mark(original.body.body[at])
        lines[at] = lines[at].with_changes(iter=expr(f"reversed({lines[at].iter.value})"))
        return _with_lines(updated, lines)


class ListNodeAfterChildren(MethodRepair):
    """topo_wrong_order: `topo.append(v)` moved after the loop over v's children (post-order), and the walk
    reversed where it was not."""
    change = "`{append}` moved after the loop over the children"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        for i in _builders(lines):
            fn = lines[i]
            topo = _appended(fn)
            moved = _post_order(fn, fn.name.value, topo)
            if moved is None:
                continue
            lines[i] = moved
            self.change = self.change.format(append=f"{topo}.append(...)")
            self.mark(first(original.body.body[i], lambda n: _is_append(n, topo)))
            walk = _walk(lines)
            if walk is not None and isinstance(lines[walk].iter, cst.Name) and lines[walk].iter.value == topo:
                lines[walk] = lines[walk].with_changes(iter=expr(f"reversed({topo})"))
                self.mark(original.body.body[walk])
                self.change += f", and the walk reversed, `reversed({topo})`"
            return _with_lines(updated, lines)
        return updated


def _post_order(fn, name, topo):
    """fn with the append after the recursive loop, in whichever block holds both; None if none does."""
    class Move(cst.CSTTransformer):
        moved = False

        def leave_IndentedBlock(self, original_node, updated_node):
            body = list(updated_node.body)
            appends = [i for i, line in enumerate(body) if _is_append(line, topo)]
            loops = [i for i, line in enumerate(body) if _recurses(line, name)]
            if self.moved or not appends or not loops or appends[0] > loops[-1]:
                return updated_node
            line = body.pop(appends[0])
            body.insert(loops[-1], line)
            self.moved = True
            return updated_node.with_changes(body=body)
    mover = Move()
    result = fn.visit(mover)
    return result if mover.moved else None


class SeedOutput(MethodRepair):
    """grad_not_seeded: `self.grad = 1` before the walk (or a seed of 0 made 1)."""
    change = "the output's grad seeded, `{me}.grad = 1`"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        me = updated.params.params[0].name.value if updated.params.params else None
        walk = _walk(lines)
        if me is None or walk is None:
            return updated
        self.change = self.change.format(me=me)
        for i, line in enumerate(lines[:walk]):
            if isinstance(line, cst.SimpleStatementLine) and any(
                    isinstance(s, cst.Assign) and code(s.targets[0].target) == f"{me}.grad" for s in line.body):
                self.mark(original.body.body[i])
                lines[i] = stmt(f"{me}.grad = 1\n").with_changes(leading_lines=line.leading_lines)
                return _with_lines(updated, lines)
        self.mark(original.body.body[walk])
        insert_before(lines, walk, stmt(f"{me}.grad = 1\n"))
        return _with_lines(updated, lines)


class SeedWithAssign(MethodRepair):
    """seed_accumulates: `self.grad += 1` -> `self.grad = 1`."""
    change = "`{me}.grad = 1` in place of `+= 1`"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        me = updated.params.params[0].name.value if updated.params.params else None
        for i, line in enumerate(lines):
            if isinstance(line, cst.SimpleStatementLine) and any(
                    isinstance(s, cst.AugAssign) and code(s.target) == f"{me}.grad" for s in line.body):
                self.change = self.change.format(me=me)
                self.mark(original.body.body[i])
                lines[i] = stmt(f"{me}.grad = 1\n").with_changes(leading_lines=line.leading_lines)
                return _with_lines(updated, lines)
        return updated


class AddVisitedSet(MethodRepair):
    """nodes_visited_twice: a `visited` set, and the builder's body under `if v not in visited: visited.add(v)`."""
    change = "a `{seen}` set: each node listed once"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        for i in _builders(lines):
            fn = lines[i]
            text = code(fn)
            if " not in " in text or not fn.params.params:
                continue
            v = fn.params.params[0].name.value
            seen = "visited" if "visited" not in names(updated) else "seen"
            body = cst.parse_statement(f"if {v} not in {seen}:\n    {seen}.add({v})\n")
            body = body.with_changes(body=body.body.with_changes(body=[*body.body.body, *fn.body.body]))
            lines[i] = fn.with_changes(body=fn.body.with_changes(body=[body]))
            lines.insert(i, stmt(f"{seen} = set()\n"))
            self.change = self.change.format(seen=seen)
            self.mark(original.body.body[i])
            return _with_lines(updated, lines)
        return updated


class AppendInsideVisited(MethodRepair):
    """append_outside_visited: `topo.append(v)` moved into the `if v not in visited` block, at its end."""
    change = "`{append}` moved inside the visited check"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        for i in _builders(lines):
            fn = lines[i]
            body = list(fn.body.body)
            checks = [j for j, line in enumerate(body) if isinstance(line, cst.If) and " not in " in code(line.test)]
            appends = [j for j, line in enumerate(body) if _is_append(line)]
            if not checks or not appends or appends[0] < checks[0]:
                continue
            check = body[checks[0]]
            line = body.pop(appends[0])
            body[checks[0]] = check.with_changes(body=check.body.with_changes(body=[*check.body.body, line]))
            lines[i] = fn.with_changes(body=fn.body.with_changes(body=body))
            self.change = self.change.format(append=code(line.body[0]).strip())
            self.mark(first(original.body.body[i], _is_append))
            return _with_lines(updated, lines)
        return updated


class CallEveryClosure(MethodRepair):
    """backward_only_root: `self._backward()` -> `for node in reversed(topo): node._backward()`."""
    change = "every node's closure called, `for {v} in reversed({topo}): {v}._backward()`"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        me = updated.params.params[0].name.value if updated.params.params else None
        topo = next((_appended(lines[i]) for i in _builders(lines) if _appended(lines[i])), None)
        for i, line in enumerate(lines):
            if topo and isinstance(line, cst.SimpleStatementLine) and code(line.body[0]).strip() == f"{me}._backward()":
                v = "node" if "node" not in names(updated) else "n"
                self.change = self.change.format(v=v, topo=topo)
                self.mark(original.body.body[i])
                lines[i] = cst.parse_statement(f"for {v} in reversed({topo}):\n    {v}._backward()\n").with_changes(
                    leading_lines=line.leading_lines)
                return _with_lines(updated, lines)
        return updated


class KeepGrads(MethodRepair):
    """backward_resets_grads: the loop that sets every grad to 0 taken out."""
    change = "the loop that resets the grads taken out"

    def fix_method(self, original, updated):
        lines = _lines(updated)
        for i, line in enumerate(lines):
            if isinstance(line, cst.For) and all(
                    isinstance(s, cst.Assign) and is_attr(s.targets[0].target, "grad") and code(s.value) in ("0", "0.0")
                    for inner in line.body.body if isinstance(inner, cst.SimpleStatementLine) for s in inner.body) \
                    and all(isinstance(inner, cst.SimpleStatementLine) for inner in line.body.body):
                self.mark(original.body.body[i])
                del lines[i]
                return _with_lines(updated, lines)
        return updated


class CallClosures(Repair):
    """closures_not_called: `v._backward` -> `v._backward()`."""
    change = "the closure called, `{call}`"

    def leave_Expr(self, original_node, updated_node):
        if self.method is not None and is_attr(updated_node.value, "_backward"):
            self.mark(original_node)
            self.change = self.change.format(call=code(updated_node.value) + "()")
            return updated_node.with_changes(value=cst.Call(updated_node.value))
        return updated_node


class VisitNodes(Repair):
    """visited_by_value: `v.data not in visited` -> `v not in visited`, `visited.add(v.data)` -> `visited.add(v)`."""
    change = "the nodes themselves in `{seen}`, not their data"

    def __init__(self, scope) -> None:
        super().__init__(scope)
        self.sets: set[str] = set()

    def leave_Comparison(self, original_node, updated_node):
        if self.method is None or not is_attr(updated_node.left, "data") or len(updated_node.comparisons) != 1:
            return updated_node
        target = updated_node.comparisons[0]
        if not isinstance(target.operator, (cst.In, cst.NotIn)) or not isinstance(target.comparator, cst.Name):
            return updated_node
        self.sets.add(target.comparator.value)
        self.change = self.change.format(seen=target.comparator.value)
        self.mark(original_node)
        return updated_node.with_changes(left=updated_node.left.value)

    def leave_Call(self, original_node, updated_node):
        func = updated_node.func
        if self.method is None or not isinstance(func, cst.Attribute) or func.attr.value != "add" \
                or owner(func) not in self.sets or len(updated_node.args) != 1 \
                or not is_attr(updated_node.args[0].value, "data"):
            return updated_node
        self.mark(original_node)
        return updated_node.with_changes(args=[updated_node.args[0].with_changes(value=updated_node.args[0].value.value)])


REPAIRS = {
    "topo_not_reversed": (WalkReversed,),
    "topo_wrong_order": (ListNodeAfterChildren,),
    "grad_not_seeded": (SeedOutput,),
    "seed_accumulates": (SeedWithAssign,),
    "nodes_visited_twice": (AddVisitedSet,),
    "append_outside_visited": (AppendInsideVisited,),
    "backward_only_root": (CallEveryClosure,),
    "backward_resets_grads": (KeepGrads,),
    "closures_not_called": (CallClosures,),
    "visited_by_value": (VisitNodes,),
    "no_topological_order": (WalkInTopologicalOrder, CheckVisited),
}
