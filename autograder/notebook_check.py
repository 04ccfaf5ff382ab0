"""The kit's cases inside a Jupyter kernel, for the otter-grader and nbgrader editions' test cells.

    from autograder.notebook_check import case, score_part, task_score
    case("mul/hand-L-graph")      # otter: True, or the kit's message printed and False
    score_part("mul", 3, of=60)   # otter: whether the kit's score of mul holds part 3 (scoring/parts.py)
    task_score("mul")             # nbgrader: the task's points the kit gives (what failed is printed)

The notebook is not judged by the kernel's state: its file is read as `autograder grade` reads it
(code cells only, the tools' own cells left out), run in the kit's sandboxed child, and scored by
the kit, once per notebook content (every later case reads the same report). So a case passes here
exactly when it passes in `autograder grade` on the same notebook. Save the notebook first.

Hidden cases are graded only where the instructor's files are: kit_secret/ (the rubric with the
hidden seed, and the goldens) beside the notebook, as otter's autograder zip and nbgrader's
autograding put it; a student's copy has none, and a hidden case there says so.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

SECRET = Path("kit_secret")
NOTEBOOK = "backprop.ipynb"
_REPORTS: dict[tuple[str, bool], object] = {}
_SAID: set[tuple[int, str]] = set()  # (report, task) whose next step a case has printed: said once a report
__all__ = ["case", "score_part", "task_score"]


def case(case_id: str, notebook: str | None = None) -> bool:
    """Does the notebook's code pass the kit's case case_id? Prints why not."""
    hidden = "/hidden-" in case_id
    try:
        report = _report(_notebook(notebook), hidden, SECRET)
    except _CantGrade as err:
        print(f"backprop-kit: {err}")
        return False
    task = next((t for t in report.tasks if t.id == case_id.split("/")[0]), None)
    found = next((c for c in task.cases if c.id == case_id), None) if task else None
    if report.error:
        print(f"backprop-kit: your notebook could not be graded: {report.error}")
        return False
    if found is None:
        print(f"backprop-kit: no case {case_id} in this kit: is your autograder/ folder from this assignment?")
        return False
    if found.status == "passed":
        return True
    from autograder.report.next_step import next_step

    step = next_step(task, report)
    said = (id(report), task.id)
    if step is not None and said in _SAID:  # the task's step, and a case like it, were printed above
        print(f"{case_id}: [{found.status}] {found.message} (see the next step of {task.id} above)")
        return False
    _SAID.add(said)
    print(f"{case_id}: {found.title}" if found.title else case_id)
    if step is not None:
        print("\n".join(f"  {line}" for line in step.lines()))
    else:
        for d in task.diagnosis:
            print(f"  {'mistake' if d.proven else 'likely mistake'}: {d.message}")
            if d.fix:
                print(f"  fix: {d.fix}")
    print(f"  [{found.status}] {found.message}")
    for line in found.details:
        print(f"      {line}")
    if found.output:
        print("      your code printed:\n" + "\n".join(f"        | {x}" for x in found.output.split("\n")))
    return False


def score_part(task_id: str, part: int, of: int, notebook: str | None = None) -> bool:
    """Does the kit's score of the task (public and hidden cases, with kit_secret/) hold part `part` of
    parts(of)? otter adds up the points of the parts that pass: the kit's score, exactly."""
    from autograder.report.numbers import show
    from autograder.scoring.parts import paid, units

    try:
        report = _report(_notebook(notebook), True, SECRET)
    except _CantGrade as err:
        print(f"backprop-kit: {err}")
        return False
    task = next((t for t in report.tasks if t.id == task_id), None)
    counted = [c for c in task.cases if c.counted] if task else []
    have = units(sum(c.status == "passed" for c in counted), len(counted), of)
    if task is None or have is None:
        print(f"backprop-kit: the parts of {task_id} were made for other cases: is kit_secret/ from this assignment?")
        return False
    if paid(of, have)[part]:
        return True
    print(f"{task_id}: {show(task.score)} / {show(task.max_score)} from the kit, which this part is not in")
    return False


def task_score(task_id: str, secret: str | None = None, notebook: str | None = None) -> float:
    """The kit's score of one task on the saved notebook (for nbgrader: a test cell's numeric last
    expression is its points). Public cases only, but when nbgrader autogrades (NBGRADER_EXECUTION is
    "autograde" in the kernel's environment): then public and hidden ones, from secret, the instructor's
    kit_secret/. What failed is printed, never to stderr."""
    hidden = secret is not None and os.environ.get("NBGRADER_EXECUTION") == "autograde"
    try:
        report = _report(_notebook(notebook), hidden, Path(secret) if hidden else SECRET)
    except _CantGrade as err:
        print(f"backprop-kit: {err}")
        return 0.0
    if report.error:
        print(f"backprop-kit: your notebook could not be graded: {report.error}")
    task = next((t for t in report.tasks if t.id == task_id), None)
    if task is None:
        print(f"backprop-kit: no task {task_id} in this kit")
        return 0.0
    from autograder.report.task_text import explain_task

    print(explain_task(task, visibility="public", report=report))
    return task.score


class _CantGrade(Exception):
    pass


def _notebook(given: str | None) -> Path:
    if given:
        return Path(given)
    if Path(NOTEBOOK).is_file():
        return Path(NOTEBOOK)
    found = sorted(Path(".").glob("*.ipynb"))
    if len(found) == 1:
        return found[0]
    raise _CantGrade(f"no {NOTEBOOK} here to grade ({len(found)} other notebooks): save your notebook as {NOTEBOOK}")


def _report(notebook: Path, hidden: bool, secret: Path):
    from autograder.errors import UserError

    key = (hashlib.sha256(notebook.read_bytes()).hexdigest(), hidden)
    try:
        if key not in _REPORTS:
            _REPORTS[key] = _grade(notebook, hidden, secret)
    except UserError as err:   # an edited variant file, a rubric that can't be read: one line
        raise _CantGrade(str(err)) from None
    return _REPORTS[key]


def _grade(notebook: Path, hidden: bool, secret: Path):
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path
    from autograder.variants.assign import for_student
    from autograder.variants.handout_file import handout_rubric

    if hidden and not (secret / "assignment.toml").is_file():
        raise _CantGrade(f"hidden cases are graded on your instructor's side only "
                         f"(no {secret / 'assignment.toml'} here)")
    with tempfile.TemporaryDirectory(prefix="kit-goldens-") as cache:
        # a student's own notebook (otter's per-student editions): the variant its kit was signed for;
        # a notebook released to the class (nbgrader's) with [variants]: the variant of the student it is graded for
        if hidden:
            rubric = handout_rubric(load_rubric(secret / "assignment.toml"), secret)
            shipped = secret / "goldens.json"
            if rubric.variants is not None and rubric.variant.is_base and (secret / "goldens").is_dir():
                rubric, shipped = for_student(rubric, _nbgrader_student(notebook)), secret / "goldens"
            store = GoldenStore(cache_dir=Path(cache), shipped=shipped, compute=False)
        else:
            rubric, store = handout_rubric(load_rubric(search=notebook.parent)), GoldenStore(cache_dir=Path(cache))
        return grade_path(notebook, rubric=rubric, include_hidden=hidden, store=store, name=notebook.name)


def _nbgrader_student(notebook: Path) -> str:
    """The student nbgrader autogrades this notebook for: the <student> of autograded/<student>/<assignment>/,
    a folder nbgrader names from its own database, never from anything in the submission."""
    folder = notebook.resolve().parent
    if folder.parent.parent.name != "autograded":
        raise _CantGrade(f"with [variants], hidden cases are graded where nbgrader autogrades "
                         f"(autograded/<student>/<assignment>/), not in {folder}")
    return folder.parent.name
