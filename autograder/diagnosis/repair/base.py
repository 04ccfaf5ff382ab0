"""What every repair shares: a CSTTransformer that knows where it stands in the student's code.

A repair is one small `Repair` per mistake, named for the change it makes (`UseAddAssign`: `=` becomes
`+=`). It edits only inside its `Scope` (the functions the mistake's task lives in: `__mul__` and the
closures it defines, `Neuron.__call__`, `train`), by the names the student's code gives (the method's own
parameters, the node it returns), and marks each statement it changes (`mark`): a repair that marked
nothing found no spot, and proves nothing. LibCST only parses: no student code runs here.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst


@dataclass(frozen=True)
class Scope:
    """The functions a task's code lives in: by name (and class, where the exercise API fixes it)."""
    names: frozenset[str]
    classes: frozenset[str] = frozenset()   # empty: in any class, or none

    def holds(self, name: str, cls: str | None) -> bool:
        return name in self.names and (not self.classes or cls in self.classes)


@dataclass(frozen=True)
class Frame:
    """A function being visited: its name, its class (None for a function not directly in a class body),
    its parameters, and the name it returns (`return out`: the node an operation makes)."""
    name: str
    cls: str | None
    params: tuple[str, ...]
    returns: str | None
    node: cst.FunctionDef


class Repair(cst.CSTTransformer):
    """Subclasses set `change` (the fix in words: "`+=` in place of `=`") and edit in their leave_ methods,
    calling `mark(original_node)` for each statement they change (which lines changed is read off the texts
    before and after: apply.py)."""
    change = ""
    everywhere = False   # look into functions outside the scope too (to read how __init__ keeps a thing)

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope
        self.marked = 0
        self._stack: list[Frame | str] = []   # a class's name, or a function's frame

    # -- where the visit stands ------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._stack.append(node.name.value)

    def leave_ClassDef(self, original_node, updated_node):
        self._stack.pop()
        return self.leave_class(original_node, updated_node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        cls = self.class_here()
        params = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params))
        inside = self.method is not None or self.scope.holds(node.name.value, cls)
        self._stack.append(Frame(node.name.value, cls, params, _returned(node) if inside else None, node))
        return inside or self.everywhere  # a function outside the scope is not looked into

    def leave_FunctionDef(self, original_node, updated_node):
        self._stack.pop()
        return self.leave_function(original_node, updated_node)

    def leave_class(self, original_node, updated_node):
        return updated_node

    def leave_function(self, original_node, updated_node):
        return updated_node

    @property
    def method(self) -> Frame | None:
        """The outermost function of the scope the visit is in (None: outside the scope)."""
        return next((f for f in self._stack if isinstance(f, Frame) and self.scope.holds(f.name, f.cls)), None)

    @property
    def in_closure(self) -> bool:
        """Inside a function defined in the scope's method (an operation's _backward closure)."""
        frames = [f for f in self._stack if isinstance(f, Frame)]
        method = self.method
        return method is not None and frames[-1] is not method

    def class_here(self) -> str | None:
        """The class whose body the visit is directly in (None: a function's, or the module's)."""
        return self._stack[-1] if self._stack and isinstance(self._stack[-1], str) else None

    @property
    def frame(self) -> Frame | None:
        frames = [f for f in self._stack if isinstance(f, Frame)]
        return frames[-1] if frames else None

    def mark(self, original: cst.CSTNode | None) -> None:
        self.marked += 1


class MethodRepair(Repair):
    """A repair of the scope's method itself: `fix_method` gets it once it has been visited."""
    def leave_function(self, original_node, updated_node):
        # the frame is popped already: outside the scope now, the function just left is the method
        if self.method is None and self.scope.holds(original_node.name.value, self.class_here()):
            return self.fix_method(original_node, updated_node)
        return updated_node

    def fix_method(self, original, updated):
        return updated


# -- small helpers on nodes --------------------------------------------------------------------

def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def expr(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def stmt(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text)


def is_attr(node: cst.CSTNode, attr: str, of: str | None = None) -> bool:
    """`<of>.<attr>` (any name when `of` is None)."""
    return (isinstance(node, cst.Attribute) and node.attr.value == attr and isinstance(node.value, cst.Name)
            and (of is None or node.value.value == of))


def owner(node: cst.CSTNode) -> str | None:
    """`x` of `x.grad`."""
    return node.value.value if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) else None


_TIGHT = (cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.MatrixMultiply, cst.Power)


def parenthesized(node: cst.BaseExpression, left_of_times: bool = False) -> cst.BaseExpression:
    """node, in parentheses where an operator around it would bind tighter than its own (left_of_times: as the
    left operand of `*`, where a product or a power needs none)."""
    if node.lpar or (left_of_times and (
            (isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _TIGHT))
            or (isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not)))):
        return node
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power):
        return node
    if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation, cst.Comparison, cst.IfExp, cst.UnaryOperation,
                         cst.Lambda)):
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def times(left: cst.BaseExpression, right: cst.BaseExpression) -> cst.BinaryOperation:
    return cst.BinaryOperation(parenthesized(left, True), cst.Multiply(whitespace_before=cst.SimpleWhitespace(" "),
                                                                        whitespace_after=cst.SimpleWhitespace(" ")),
                               parenthesized(right))


def mentions(node: cst.CSTNode, text: str) -> bool:
    return text in code(node)


def simple_statements(body) -> list:
    """The small statements (assignments, calls, returns) directly in an indented block."""
    return [s for line in body.body if isinstance(line, cst.SimpleStatementLine) for s in line.body]


def insert_before(lines: list, at: int, new) -> None:
    """new inserted in lines before lines[at], the comments above lines[at] moved above it."""
    if at < len(lines) and hasattr(lines[at], "leading_lines"):
        new = new.with_changes(leading_lines=lines[at].leading_lines)
        lines[at] = lines[at].with_changes(leading_lines=[])
    lines.insert(at, new)


def first(node: cst.CSTNode, test) -> cst.CSTNode | None:
    """The first node under `node` (itself included) that passes `test`, in the order of the source."""
    found: list = []

    class First(cst.CSTVisitor):
        def on_visit(self, inner) -> bool:
            if not found and test(inner):
                found.append(inner)
            return not found
    node.visit(First())
    return found[0] if found else None


def names(node: cst.CSTNode) -> set[str]:
    """Every identifier used under node (not its comments)."""
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)
    node.visit(Names())
    return found


def _returned(node: cst.FunctionDef) -> str | None:
    """The name the function returns (`return out`), not looking into functions it defines."""
    found: list[str] = []

    class Returns(cst.CSTVisitor):
        def on_visit(self, inner) -> bool:
            # a return is a statement: nothing inside an expression (a lambda's, a comprehension's) is one, and the
            # first one found is the answer
            return not found and not isinstance(inner, cst.BaseExpression) and super().on_visit(inner)

        def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
            return inner is node

        def visit_Lambda(self, inner) -> bool:
            return False

        def visit_Return(self, ret: cst.Return) -> None:
            if isinstance(ret.value, cst.Name):
                found.append(ret.value.value)
    node.visit(Returns())
    return found[0] if found else None
