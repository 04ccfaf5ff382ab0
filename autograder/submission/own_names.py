"""The names a student's files import their own package by (`my_micrograd`, `crudgrad`).

The kit puts a student's files into its own `micrograd` package; a file that imports its
package by the student's name for it (`from my_micrograd.engine import Value`, `import
crudgrad.engine`) would then find nothing. The names found here are written beside the
package (OWN_NAMES) and the child makes each one reach `micrograd` itself: the same module
objects, imported once (child/student.py). Read from the source text, never run, and never parsed
as a whole: the grading process reads at most MAX_BYTES of each file, line by line, with patterns
that take linear time (a student's text costs it no more than its length; issue 19.2).

A name counts when a file imports one of the student's own modules through it
(`X.engine`, `from X import nn`), or imports it bare while it is the name of the folder that
held the files: nothing else can be told from a library of that name.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

OWN_NAMES = "own_packages.txt"  # beside micrograd/, one name per line: read by child/student.py
# libraries with modules of these names (`from jax import nn`, `torch.nn`): never a student's package
LIBRARIES = frozenset({"torch", "tensorflow", "jax", "flax", "keras", "numpy", "scipy", "sklearn", "mxnet",
                       "tinygrad", "autograd", "paddle", "mlx", "chainer", "theano",
                       "setuptools", "pytest"})  # `from setuptools import setup` in a repo's setup.py


MAX_BYTES = 1_000_000   # of each file: an import statement sits near the top
_FROM = re.compile(r"[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(.*)")
_IMPORT = re.compile(r"[ \t]*import[ \t]+(.*)")
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def own_names(package: Path, modules: set[str], folder: str = "") -> list[str]:
    """The names the .py files under `package` import it by; modules: the student's module names."""
    found: set[str] = set()
    for path in sorted(package.rglob("*.py")):
        try:
            with open(path, "rb") as f:
                text = f.read(MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        for module, names in _imports(text):
            found.update(_imported(module, names, modules, folder))
    return sorted(n for n in found if n.isidentifier() and n != "micrograd" and n not in sys.stdlib_module_names
                  and n not in modules and (n not in LIBRARIES or n == folder))  # their autograd/ is theirs


def _imports(text: str):
    """(module, names) of each `from module import names`, and (None, modules) of each `import a, b`,
    a parenthesised list of names followed onto the next lines."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "import" not in line:  # neither pattern can match (most lines: a test in C, not two regex matches)
            continue
        line = line.split("#", 1)[0]
        found = _FROM.match(line)
        if found:
            rest = found[2]
            if "(" in rest and ")" not in rest:  # from x import (a,\n b)
                rest += " ".join(l.split("#", 1)[0] for l in lines[i + 1:i + 50]).split(")", 1)[0]
            yield found[1], [n for n in _NAME.findall(rest.split(" as ")[0] if " as " not in rest else
                                                       ",".join(part.split(" as ")[0] for part in rest.split(",")))]
            continue
        found = _IMPORT.match(line)
        if found:
            yield None, [part.split(" as ")[0].strip() for part in found[1].split(",") if part.strip()]


def _imported(module: str | None, names: list[str], modules: set[str], folder: str) -> list[str]:
    if module is None:  # import a.b, c
        return [top for name in names for top, _, rest in [name.partition(".")]
                if rest.partition(".")[0] in modules or (not rest and top == folder)]
    if module.startswith("."):
        return []
    top, _, rest = module.partition(".")
    if rest.partition(".")[0] in modules or (not rest and (top == folder or any(n in modules for n in names))):
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
