"""Run a notebook's code cells one after another, as a notebook runner does.

Standard library only: this runs in the sandboxed child. The autograder turns a notebook into
one module (micrograd/engine.py) and writes beside it where each code cell stands in it
(engine.cells: one "number first last" line per cell, 1-based, inclusive). A cell that raises
is reported and the next cell runs, as nbgrader and otter run a notebook (nbclient's
allow_errors), so an exploratory cell that fails does not cost the engine defined above it.
A cell that imports a forbidden library still stops everything: the assignment's rule.
"""
import os
import sys
import types

from hooks import ForbiddenImport

SUFFIX = ".cells"


def cell_map(path):
    """[(number, first, last)] from the .cells file beside the module at `path`, or None."""
    table = path[:-3] + SUFFIX
    if not os.path.isfile(table):
        return None
    with open(table, encoding="utf-8") as f:
        return [tuple(int(x) for x in line.split()) for line in f if line.strip()]


def run_cells(name, path, cells, describe):
    """The module `name` made from the cells of the file at `path`, and what each cell that raised
    said (describe(exc) -> "hw.ipynb:12: NameError: ..."). ForbiddenImport propagates."""
    module = types.ModuleType(name)
    module.__file__ = path
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failed = []
    for number, first, last in cells:
        source = "\n" * (first - 1) + "\n".join(lines[first - 1:last]) + "\n"  # line numbers as in the file
        try:
            exec(compile(source, path, "exec"), module.__dict__)
        except ForbiddenImport:
            del sys.modules[name]  # the module is not there: what imports it is told so
            raise
        except BaseException as exc:  # noqa: B036 - a cell's SystemExit is the student's too
            failed.append(f"cell {number}: {describe(exc)}")
    return module, failed

