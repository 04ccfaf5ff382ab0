"""solutions/micrograd/*.py as notebook code cells, one per module, for one notebook namespace.

A notebook is one module: nn.py's `from micrograd.engine import Value` and train.py's imports of the
package are left out (Value is already defined above). Each solution block

    # BEGIN SOLUTION mul: <what to write>
    ...
    # END SOLUTION

is rewritten in the tool's markers so that the tool's student version has, in its place, the very
stub exercises/ has (`raise NotImplementedError("mul: <what to write>")`).
"""
from __future__ import annotations

import re
from pathlib import Path

from autograder import paths
from autograder.exercises.markers import BEGIN, END, stub_line
from autograder.exercises.variant_source import engine_source
from autograder.variants.model import BASE, Variant

MODULES = ("engine", "nn", "train")
PACKAGE_IMPORT = re.compile(r"^\s*(from\s+micrograd(\.\w+)?\s+import\b|import\s+micrograd\b)")


def module_source(module: str, solutions: Path = paths.SOLUTIONS, variant: Variant = BASE) -> str:
    """A module of solutions/ with the package's own imports left out (engine: with the variant's operation)."""
    text = (Path(solutions) / "micrograd" / f"{module}.py").read_text(encoding="utf-8")
    if module == "engine":
        text = engine_source(text, variant)
    return "".join(line for line in text.splitlines(keepends=True) if not PACKAGE_IMPORT.match(line))


def for_otter(text: str) -> str:
    """Otter's markers: the stub as a PROMPT (a no-op string in the solution, code in the student's
    version), then the solution as `BEGIN SOLUTION NO PROMPT` ... `END SOLUTION`."""
    out = []
    for line in text.splitlines(keepends=True):
        begin = BEGIN.match(line)
        if begin:
            indent = begin["indent"]
            out += [f'{indent}""" # BEGIN PROMPT\n', stub_line(line), f'{indent}""" # END PROMPT\n',
                    f"{indent}# BEGIN SOLUTION NO PROMPT\n"]
        elif END.match(line):
            out.append(line.split("#")[0] + "# END SOLUTION\n")
        else:
            out.append(line)
    return "".join(out)


def for_nbgrader(text: str) -> str:
    """nbgrader's markers: `### BEGIN SOLUTION` / `### END SOLUTION` (nbgrader puts its own
    `raise NotImplementedError()` in the block's place), the kit's one line of what to write above."""
    out = []
    for line in text.splitlines(keepends=True):
        begin = BEGIN.match(line)
        if begin:
            what = begin["rest"].strip()
            out += [f"{begin['indent']}# {what}\n", f"{begin['indent']}### BEGIN SOLUTION\n"]
        elif END.match(line):
            out.append(line.split("#")[0] + "### END SOLUTION\n")
        else:
            out.append(line)
    return "".join(out)
