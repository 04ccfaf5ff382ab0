"""The grading tools' own cells in a student's notebook, which the kit neither runs nor grades.

A notebook from an otter-grader or nbgrader course holds, beside the student's code, the
tool's machinery: otter's init cell (`import otter`, `grader = otter.Notebook(...)`) and its
`grader.check("mul")` / `grader.check_all()` / `grader.export()` calls; nbgrader's autograder
test cells (metadata `nbgrader.grade` without `nbgrader.solution`) and the kit's own editions'
test cells (`from autograder.notebook_check import case`), whose asserts would fail
on unfinished work. Run as part of the student's module, the first costs every task (there
is no otter in the sandbox) and the second turns one failing assert into an import failure.
The kit grades the student's code by its own cases, so these cells and calls are left out.
"""
from __future__ import annotations

import ast

SKIPPED = "# [autograder: {what}, not run by the autograder]"
KIT_TEST = "from autograder.notebook_check import"   # the otter and nbgrader editions' test cells
OTTER_CALLS = {"check", "check_all", "export", "run_plugin", "to_pdf", "add_plugin_files"}
MAX_PARSED = 200_000  # characters: a longer cell is the student's own code, never parsed for otter's calls


def tool_cell(cell) -> str | None:
    """What a whole code cell is, when it is a grading tool's test cell; None for the student's code."""
    meta = (cell.get("metadata") or {}).get("nbgrader") or {}
    if meta.get("grade") and not meta.get("solution"):
        return "an nbgrader test cell"
    source = cell.get("source", "")
    if KIT_TEST in ("".join(source) if isinstance(source, list) else source):
        return "a test cell of the kit's notebook"
    return None


def grader_names(sources: list[str]) -> set[str]:
    """The names an otter.Notebook is bound to in any of the cells (`grader`, as otter writes it)."""
    names = {"grader"}
    for source in sources:
        tree = _parse(source) if "otter" in source else None
        for node in tree.body if tree else ():
            if isinstance(node, ast.Assign) and _is_notebook_call(node.value):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def drop_otter(source: str, names: set[str] = frozenset({"grader"})) -> str:
    """source without otter's statements (its import, `grader = otter.Notebook(...)`, grader.check(...)),
    each replaced by a comment of as many lines, so that every other line keeps its number.
    Source that does not parse is returned as it is (the student's error is reported where it is)."""
    mentioned = "otter" in source or any(f"{name}." in source for name in names)
    tree = _parse(source) if mentioned else None
    if tree is None:
        return source
    lines = source.split("\n")
    for node in tree.body:
        if _is_otter(node, names):
            first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
            indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
            for i in range(first, last + 1):
                lines[i] = indent + SKIPPED.format(what="otter-grader's")
    return "\n".join(lines)


def _parse(source: str) -> ast.Module | None:
    """The cell's tree, or None: a syntax error, a cell too long, or one nested past the parser's limits
    (a 3,000-term expression) is left as it is, for the child to report as that one cell."""
    if len(source) > MAX_PARSED:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _is_notebook_call(value) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "otter")


def _is_otter(node: ast.stmt, names: set[str]) -> bool:
    if isinstance(node, ast.Import):
        return all(a.name.partition(".")[0] == "otter" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").partition(".")[0] == "otter"
    if isinstance(node, ast.Assign):
        return _is_notebook_call(node.value)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        return (isinstance(func, ast.Attribute) and func.attr in OTTER_CALLS
                and isinstance(func.value, ast.Name) and func.value.id in names)
    return False
