"""The nbgrader source notebook of the assignment, built from solutions/.

Three autograded answer cells (engine, nn, train: `nbgrader.solution`, `### BEGIN SOLUTION` blocks)
and one autograder test cell per task (`nbgrader.grade`, locked, worth the rubric's points). A test
cell's numeric last expression is its points in nbgrader (partial credit), so it ends with the kit's
score of the task: public cases in the released copy, public and hidden ones when nbgrader autogrades
(it sets NBGRADER_EXECUTION=autograde in the kernel's environment) from the instructor's kit_secret/,
whose path (never a seed or a golden) the cell names.

No `### BEGIN HIDDEN TESTS` block: nbgrader saves a locked cell's checksum with its hidden tests in and
releases it without them, so autograding finds every such cell changed and warns "Attribute 'checksum'
for cell test_add has changed!" for each, on every untouched notebook (upstream issue #1961): a
released cell here is its source cell, and a warning means a changed cell.
"""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.cases.hints import HINTS
from autograder.config import Rubric
from autograder.notebooks import warmup
from autograder.notebooks.otter_master import INTRO, PARTS
from autograder.notebooks.solution_cells import MODULES, for_nbgrader, module_source
from autograder.notebooks.support import importing
from autograder.notebooks.variant_text import drawn_at_grading
from autograder.tasks import TABLE

TEST = """\
# backprop-kit test: your notebook as saved, graded by the kit; the number is this task's points
# (the public cases here; the hidden ones too when your instructor autogrades, from their folder {secret})
""" + importing("task_score", "0.0") + """
task_score({task!r}, secret={secret!r})"""


def _meta(cell, grade_id: str, *, grade: bool, solution: bool, points: float = 0.0):
    cell.metadata["nbgrader"] = {"grade": grade, "solution": solution, "locked": not solution,
                                 "grade_id": grade_id, "points": points, "schema_version": 3, "task": False}
    if grade:
        cell.metadata["deletable"] = cell.metadata["editable"] = False
    return cell


def source_notebook(rubric: Rubric, *, secret: str) -> nbformat.NotebookNode:
    """secret: kit_secret/ as seen from the notebook's folder at autograding (autograded/<student>/<id>/)."""
    cells = [new_markdown_cell(INTRO + drawn_at_grading(rubric)), new_markdown_cell(warmup.TEXT),
             _meta(new_code_cell(warmup.code(_nbgrader_block, "", "")), "warmup", grade=False, solution=True),
             _meta(new_code_cell("# Part 0's check (no points)\n" + "\n".join(f"assert {c}" for c in warmup.CHECKS)),
                   "test_warmup", grade=True, solution=False, points=0.0)]
    for module in MODULES:
        title, text = PARTS[module]
        cells.append(new_markdown_cell(f"## {title}\n\n{text}"))
        cells.append(_meta(new_code_cell(for_nbgrader(module_source(module))), module, grade=False, solution=True))
        for task in (t for t in TABLE if t.module == module):
            cells.append(new_markdown_cell(f"### `{task.id}`: {task.title}\n\n{HINTS[task.id]}"))
            cells.append(_meta(new_code_cell(TEST.format(task=task.id, secret=secret)), f"test_{task.id}",
                               grade=True, solution=False, points=float(rubric.points[task.id])))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def _nbgrader_block(stub: str, solution: str) -> str:
    return "    ### BEGIN SOLUTION\n" + solution + "    ### END SOLUTION"
