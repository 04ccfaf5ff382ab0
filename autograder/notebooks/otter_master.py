"""The otter-grader master notebook of the assignment (otter assign's format), built from solutions/.

One otter question per task id, worth the rubric's points; one otter test per kit case, worth 0:
public cases as public tests, hidden ones `# HIDDEN`. A test holds no input, seed or golden, only
`case("<id>")`, which grades the saved notebook the kit's way (autograder/notebook_check.py); its
expected output is True, so a failing test shows the kit's message. The question's points are held by
hidden tests, one per part of the task's score (scoring/parts.py: otter adds up the points of the
tests that pass, and the parts that pass add up to the kit's score of the task, exactly), each
`score_part("<task>", i, of=L)`. Per-test points are the question's `points:` list, in test order,
the public tests first (otter's student copy keeps the list's first entries). The tests stay in the
notebook's metadata (a notebook on its own still checks); `tests` in `files` is the kit's own copy of the
public ones for `otter check` on the command line (notebooks/otter_tests.py).
"""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output, new_raw_cell

from autograder.config import Rubric
from autograder.notebooks import warmup
from autograder.grading import select_cases
from autograder.notebooks.solution_cells import MODULES, for_otter, module_source
from autograder.notebooks.support import importing
from autograder.notebooks.variant_text import task_hint, variant_intro
from autograder.scoring.parts import denomination, parts
from autograder.tasks import POOL, TABLE

NAME = "backprop"
CONFIG = f"""\
# ASSIGNMENT CONFIG
name: {NAME}
requirements: requirements.txt
files:
  - autograder
  - assignment.toml
  - tests
autograder_files:
  - kit_secret
export_cell: false
strip_solutions_from_all_cells: true
check_all_cell: false
tests:
  files: false
  ok_format: true
"""
PARTS = {"engine": ("Part 1: the engine", "A `Value` remembers how it was computed; each operation's `_backward` "
                    "applies the chain rule for that one operation, and `backward()` walks the graph in reverse "
                    "topological order. Fill in the stubs below, then run the checks under each task."),
         "nn": ("Part 2: a neural net", "`Neuron`, `Layer` and `MLP` on top of your `Value`, parameters in a fixed "
                "order: layer by layer, neuron by neuron, weights then bias."),
         "train": ("Part 3: training", "A mean-squared-error loss and a plain gradient-descent loop.")}
INTRO = """\
# Backpropagation, built by hand

You build a micrograd-style scalar autograd engine, as in Karpathy's *spelled-out intro to neural networks
and backpropagation*. Each task is checked by **backprop-kit**: the check reads this notebook as saved
(**save it before you run a check**), runs your code in a sandbox on hand-derived and random cases, and
tells you what your code computed, what was expected, and why. Your grade comes from the same cases,
plus hidden ones drawn the same way.
"""
TEST = "# backprop-kit test: your saved notebook, graded by the kit on one case\n" + \
       importing("case", "False").replace("{", "{{").replace("}", "}}") + "\ncase({case_id!r})"
PART = ("# HIDDEN\n# backprop-kit: {task}'s points, part {i} ({part} of {total}): passes when the kit's score of {task} "
        "holds it\nfrom autograder.notebook_check import score_part\nscore_part({task!r}, {i}, of={total})")


def master_notebook(rubric: Rubric) -> nbformat.NotebookNode:
    """The master notebook of the rubric's variant: its engine (with its extra operation), its cases."""
    every = select_cases(rubric, include_hidden=True)
    public = [c for c in every if c.visibility == "public"]
    hidden = [c for c in every if c.visibility == "hidden"]
    cells = [new_raw_cell(CONFIG), new_markdown_cell(INTRO + variant_intro(rubric.variant)), *_warmup()]
    for module in MODULES:
        title, text = PARTS[module]
        cells += [new_markdown_cell(f"## {title}\n\n{text}"),
                  new_code_cell(for_otter(module_source(module, variant=rubric.variant)))]
        for task in (t for t in TABLE + POOL if t.module == module and t.id in rubric.points):
            total = denomination(sum(c.task == task.id and not c.needs for c in every),
                                 sum(c.task == task.id and bool(c.needs) for c in every))
            cells += _question(task, rubric.points[task.id], [c.id for c in public if c.task == task.id],
                               [c.id for c in hidden if c.task == task.id], total, rubric.variant)
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def _question(task, points: float, public: list[str], hidden: list[str], total: int, variant) -> list:
    """The task's question: its cases' tests (worth 0), then its parts' (scoring/parts.py), total units in all."""
    prompt = f"### `{task.id}`: {task.title}\n\n{task_hint(task.id, variant)}"
    cases = [_test(TEST.format(case_id=cid)) for cid in public] + \
            [_test("# HIDDEN\n" + TEST.format(case_id=cid)) for cid in hidden]
    shares = parts(total)
    tests = cases + [_test(PART.format(task=task.id, i=i, part=part, total=total)) for i, part in enumerate(shares)]
    each = [0.0] * len(cases) + [points * part / total for part in shares]
    config = f"# BEGIN QUESTION\nname: {task.id}\npoints: [{', '.join(map(_yaml_float, each))}]"
    return [new_raw_cell(config), new_markdown_cell(prompt), new_raw_cell("# BEGIN TESTS"), *tests,
            new_raw_cell("# END TESTS"), new_raw_cell("# END QUESTION")]


def _yaml_float(x: float) -> str:
    """repr(x) as YAML 1.1 reads a float (otter's yaml): a mantissa with a point ("5.0e-06", not "5e-06")."""
    text = repr(float(x))
    mantissa, e, exponent = text.partition("e")
    return (mantissa if "." in mantissa else mantissa + ".0") + e + exponent


def _test(source: str):
    cell = new_code_cell(source)
    cell.outputs = [new_output("execute_result", data={"text/plain": "True"}, execution_count=1)]
    return cell


def _otter_block(stub: str, solution: str) -> str:
    return ('    """ # BEGIN PROMPT\n' + stub + '    """ # END PROMPT\n    # BEGIN SOLUTION NO PROMPT\n'
            + solution + "    # END SOLUTION")


def _warmup() -> list:
    """Part 0, a question worth no points whose tests run in the notebook (see notebooks/warmup.py)."""
    code = warmup.code(_otter_block, "    raise NotImplementedError(\"warmup: f'(x) by hand\")\n",
                       "    raise NotImplementedError('warmup: (f(x + h) - f(x - h)) / (2 * h)')\n")
    tests = []
    for check in warmup.CHECKS:
        cell = new_code_cell(check)
        cell.outputs = [new_output("execute_result", data={"text/plain": "True"}, execution_count=1)]
        tests.append(cell)
    return [new_markdown_cell(warmup.TEXT), new_code_cell(code),
            new_raw_cell("# BEGIN QUESTION\nname: warmup\npoints: 0"), new_markdown_cell("Check Part 0:"),
            new_raw_cell("# BEGIN TESTS"), *tests, new_raw_cell("# END TESTS"), new_raw_cell("# END QUESTION")]
