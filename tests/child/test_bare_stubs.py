"""Does a bare `raise NotImplementedError()` (nbgrader's stub) still say what to write, from the kit's
comment above it, and only from a comment right there?"""
from __future__ import annotations

import shutil

from autograder import paths
from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.notebooks.solution_cells import for_nbgrader, module_source

NBGRADER_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"


def released(source: str) -> str:
    """What nbgrader's ClearSolutions makes of a solution block (its code_stub, indented as the marker)."""
    out, inside = [], False
    for line in source.split("\n"):
        if "### BEGIN SOLUTION" in line:
            indent = line[:len(line) - len(line.lstrip())]
            out += [indent + stub for stub in NBGRADER_STUB.split("\n")]
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def test_does_nbgraders_bare_stub_say_the_kits_line_of_what_to_write(tmp_path):
    shutil.copytree(paths.SOLUTIONS, tmp_path / "s")
    engine = tmp_path / "s" / "micrograd" / "engine.py"
    engine.write_text(released(for_nbgrader(engine.read_text())))
    report = grade_path(tmp_path / "s", rubric=Rubric(), include_hidden=False, tasks=["mul"])
    (case, *_) = report.task("mul").cases
    assert case.status == "missing"
    assert case.message == "not written yet: mul: add each input's local derivative times out.grad to that input's grad"


def test_is_a_bare_stub_without_the_kits_comment_above_left_without_a_message(tmp_path):
    shutil.copytree(paths.SOLUTIONS, tmp_path / "s")
    engine = tmp_path / "s" / "micrograd" / "engine.py"
    text = engine.read_text()
    engine.write_text(text.replace("            other.grad += self.data * out.grad\n",
                                   "            other.grad += self.data * out.grad\n"
                                   "            # note: this is my own comment\n"
                                   "            x = 1\n"
                                   "            raise NotImplementedError()\n", 1))
    report = grade_path(tmp_path / "s", rubric=Rubric(), include_hidden=False, tasks=["mul"])
    assert report.task("mul").cases[0].message == "not written yet (your code raises NotImplementedError)"
