"""Is the kit's import graph free of cycles, does no module import another's private names, and is every module small?

Every import of an autograder module counts, at the top of a file or inside a
function: a cycle hidden in a function is still a cycle. (issue: the house before
the new wings; child/ imports nothing of the kit, see tests/child.)
"""
from __future__ import annotations

import ast
from pathlib import Path

from autograder.paths import KIT_ROOT

PACKAGE = KIT_ROOT / "autograder"


def _module(path: Path) -> str:
    parts = list(path.relative_to(KIT_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for every autograder import in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.startswith("autograder")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("autograder") and not node.level:
            found.append((node.module, [a.name for a in node.names]))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for target, names in _imports(path):
            for t in [target] + [f"{target}.{n}" for n in names]:
                if t in modules and t != name:
                    graph[name].add(t)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _is_package_init(target: str, importer: str) -> bool:
    """A package's __init__ importing its own modules (a re-export) is not a cycle of substance."""
    return importer.startswith(target + ".") or target.startswith(importer + ".")


def test_has_the_kits_import_graph_no_cycle():
    graph = _graph()
    # a package's __init__ and its own submodules import each other by design: not counted
    pruned = {m: {t for t in ts if not _is_package_init(t, m)} for m, ts in graph.items()}
    cycle = _cycle(pruned)
    assert cycle is None, " -> ".join(cycle)


def test_does_no_module_import_another_modules_private_names():
    private = []
    for path in PACKAGE.rglob("*.py"):
        for target, names in _imports(path):
            private += [f"{_module(path)}: {target}.{n}" for n in names if n.startswith("_") and not n.startswith("__")]
    assert not private, private


def test_is_every_module_at_most_300_lines():
    """Small files with one job each: a module past 300 lines has more than one (the reference's too)."""
    long = {str(p.relative_to(KIT_ROOT)): n for root in (PACKAGE, KIT_ROOT / "reference") for p in root.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 300}
    assert not long, long
