"""Read a prepared submission without running it: forbidden imports, unreadable files, syntax errors."""
from __future__ import annotations

import ast
import io
import tokenize
from typing import Iterable

from autograder.submission.load import Prepared

FORBIDS = "which this assignment forbids: your engine must compute its own gradients"


def static_check(prepared: Prepared, forbidden: Iterable[str]) -> list[str]:
    """One line per problem, with the student's file and line:
    "engine.py:3 imports torch, which this assignment forbids: ...", "nn.py:7: SyntaxError: ..."."""
    forbidden = frozenset(forbidden)
    problems: list[str] = []
    seen: set[str] = set()
    for module, shown in prepared.files.items():
        if shown in seen:  # one file shown as several modules (a single-file submission)
            continue
        seen.add(shown)
        data = (prepared.root / "micrograd" / (module.replace(".", "/") + ".py")).read_bytes()
        try:
            tree = ast.parse(_source(data), filename=shown)
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            problems.append(f"{shown}:{line}: not valid UTF-8: save the file as UTF-8 text")
            continue
        except SyntaxError as exc:
            problems.append(f"{shown}:{exc.lineno or 1}: {type(exc).__name__}: {exc.msg}")
            continue
        except (ValueError, RecursionError, MemoryError) as exc:
            problems.append(f"{shown}: can't be read as Python ({type(exc).__name__}: {exc})")
            continue
        for node, name in _imports(tree):
            top = name.partition(".")[0]
            if top in forbidden:
                problems.append(f"{shown}:{node.lineno} imports {top}, {FORBIDS}")
    return problems


def _source(data: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    try:
        return data.decode(encoding)
    except LookupError:  # a coding line naming no codec
        raise SyntaxError(f"unknown encoding: {encoding}") from None


def _imports(tree: ast.AST):
    """(node, module name) for import statements, and __import__("x") / import_module("x") calls."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, node.module
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("__import__", "import_module"):
                yield node, node.args[0].value
