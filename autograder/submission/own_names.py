"""The names a student's files import their own package by (`my_micrograd`, `crudgrad`).

The kit puts a student's files into its own `micrograd` package; a file that imports its
package by the student's name for it (`from my_micrograd.engine import Value`, `import
crudgrad.engine`) would then find nothing. The names found here are written beside the
package (OWN_NAMES) and the child makes each one reach `micrograd` itself: the same module
objects, imported once (child/student.py). Read from the source text, never run.

A name counts when a file imports one of the student's own modules through it
(`X.engine`, `from X import nn`), or imports it bare while it is the name of the folder that
held the files: nothing else can be told from a library of that name.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

OWN_NAMES = "own_packages.txt"  # beside micrograd/, one name per line: read by child/student.py
# libraries with modules of these names (`from jax import nn`, `torch.nn`): never a student's package
LIBRARIES = frozenset({"torch", "tensorflow", "jax", "flax", "keras", "numpy", "scipy", "sklearn", "mxnet",
                       "tinygrad", "autograd", "paddle", "mlx", "chainer", "theano"})


def own_names(package: Path, modules: set[str], folder: str = "") -> list[str]:
    """The names the .py files under `package` import it by; modules: the student's module names."""
    found: set[str] = set()
    for path in sorted(package.rglob("*.py")):
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            found.update(_imported(node, modules, folder))
    return sorted(n for n in found if n.isidentifier() and n != "micrograd" and n not in sys.stdlib_module_names
                  and n not in modules and n not in LIBRARIES)


def _imported(node, modules: set[str], folder: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [top for a in node.names for top, _, rest in [a.name.partition(".")]
                if rest.partition(".")[0] in modules or (not rest and top == folder)]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        top, _, rest = node.module.partition(".")
        if rest.partition(".")[0] in modules or (not rest and (top == folder or any(a.name in modules
                                                                                    for a in node.names))):
            return [top]
    return []


def write_own_names(root: Path, files: dict[str, str], folder: str = "") -> list[str]:
    """Write root/OWN_NAMES for the package root/micrograd; the notes saying what was done."""
    modules = {m.partition(".")[0] for m in files}
    names = own_names(root / "micrograd", modules, folder)
    if names:
        (root / OWN_NAMES).write_text("".join(n + "\n" for n in names), encoding="utf-8")
    return [f"your files import their own package as `{n}`: the kit puts them in its `micrograd` package, and "
            f"`{n}` reaches that package." for n in names]
