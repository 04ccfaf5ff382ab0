"""Does the otter-grader edition work with the real otter-grader, and give the kit's grades?

`autograder export otter DIR`, then `otter assign DIR/backprop.ipynb dist` (otter's own run), a real
Jupyter kernel running dist/student's notebook (nbclient), and `otter run -a <autograder zip>` on
the solution, the stubs and notebooks with one mistake or several made by editing the solution's cells:
each question's score equals the kit's task score on the same notebook, to otter's 5 decimals. Otter's
facts relied on (7.0.0): a question's score is the sum of the points of its tests that pass; a
question's `points:` list gives each test its points, in order (the student copy keeps the first
entries, the public tests'); results.json rounds scores to 5 decimals; `# HIDDEN` marks a hidden test;
`files` reach dist/student and the autograder, `autograder_files` the autograder only;
`strip_solutions_from_all_cells` strips `# BEGIN SOLUTION` blocks outside questions too; `otter check FILE
-q Q` reads tests/Q.py, runs the whole notebook (its checks too) and divides the points of the tests that
passed by those possible.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.notebooks import warmup
from autograder.notebooks.solution_cells import module_source
from autograder.paths import KIT_ROOT
from notebook_mistakes import MISTAKES, with_mistake

pytestmark = pytest.mark.slow
SEED = "4242"
OTTER = Path(sys.executable).with_name("otter")


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    root = tmp_path_factory.mktemp("otter")
    mp = pytest.MonkeyPatch()
    mp.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    try:
        assert main(["export", "otter", str(root / "master")]) == 0
    finally:
        mp.undo()
    done = subprocess.run([str(OTTER), "assign", "backprop.ipynb", str(root / "dist")], cwd=root / "master",
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "dist"


def filled(dist: Path, dest: Path, *, mistake: str | None = None) -> Path:
    """dist/student's notebook with the solutions' code in its three code cells (and one mistake)."""
    nb = nbformat.read(dist / "student" / "backprop.ipynb", as_version=4)
    for cell in nb.cells:
        for module, key in (("engine", "class Value"), ("nn", "class Neuron"), ("train", "def mse_loss")):
            if cell.cell_type == "code" and key in cell.source:
                cell.source = with_mistake(module_source(module), mistake)
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(dest))
    return dest


def solved(notebook: Path) -> Path:
    """The notebook with the warm-up (Part 0) solved too."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and "def slope(" in cell.source:
            cell.source = warmup.solved()
    nbformat.write(nb, str(notebook))
    return notebook


def otter_check(work: Path, question: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(OTTER), "check", "backprop.ipynb", "-q", question], cwd=work,
                          capture_output=True, text=True, timeout=600)


def results(shown: str) -> dict[str, str]:
    """otter check's output, by question: each question's `<name> results:` section."""
    parts = re.split(r"^(\w+) results:", shown, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def kit_scores(notebook: Path) -> dict[str, float]:
    rubric = load_rubric(KIT_ROOT / "assignment.toml")
    from dataclasses import replace
    report = grade_path(notebook, rubric=replace(rubric, hidden_seed=int(SEED)), include_hidden=True)
    return {t.id: t.score for t in report.tasks}


def otter_scores(dist: Path, notebook: Path, out: Path) -> dict[str, float]:
    out.mkdir(parents=True)
    zip_path = next((dist / "autograder").glob("*.zip"))
    done = subprocess.run([str(OTTER), "run", "-a", str(zip_path), str(notebook), "-o", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    tests = json.loads((out / "results.json").read_text())["tests"]
    scores = {t["name"]: t["score"] for t in tests if "score" in t}
    assert scores.pop("warmup") == 0  # Part 0 is worth no points
    return scores


def test_is_the_student_notebook_the_exercises_and_nothing_hidden(dist):
    student = dist / "student"
    text = (student / "backprop.ipynb").read_text()
    nb = nbformat.read(student / "backprop.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert (KIT_ROOT / "exercises" / "micrograd" / "engine.py").read_text() in code
    for secret in ("BEGIN SOLUTION", "self.grad += out.grad", "hidden-", SEED, "kit_secret"):
        assert secret not in text, secret
    assert not (student / "kit_secret").exists() and not list(student.rglob("reference"))
    # the seed as a number of its own (the goldens' floats may hold its digits: 4.42425653...)
    alone = re.compile(rf"(?<![\d.]){SEED}(?![\d.])")
    assert not any(alone.search(p.read_text(errors="replace")) for p in student.rglob("*") if p.is_file())


def test_does_grader_check_give_the_kits_message_in_a_real_kernel(dist, tmp_path):
    """The student's notebook runs top to bottom in a kernel; a check of mul on the stubs says what to write."""
    from nbclient import NotebookClient

    work = tmp_path / "student"
    shutil.copytree(dist / "student", work)
    nb = nbformat.read(work / "backprop.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(work)}},
                   allow_errors=True).execute()
    check = next(c for c in nb.cells if c.cell_type == "code" and c.source.strip() == 'grader.check("mul")')
    shown = json.dumps(check.outputs)
    assert "not written yet" in shown and "mul: add each input" in shown, shown[:2000]


def test_are_otters_scores_the_kits_on_solution_stubs_and_mistakes(dist, tmp_path):
    notebooks = {"solution": filled(dist, tmp_path / "solution" / "backprop.ipynb"),
                 "stubs": dist / "student" / "backprop.ipynb"}
    notebooks.update({m: filled(dist, tmp_path / m / "backprop.ipynb", mistake=m) for m in MISTAKES})
    for name, notebook in notebooks.items():
        ours, theirs = kit_scores(notebook), otter_scores(dist, notebook, tmp_path / "out" / name)
        assert set(theirs) == set(ours), name
        for task in ours:
            # the same score: otter's results.json keeps 5 decimals, the kit 6
            assert abs(theirs[task] - ours[task]) < 1e-5, (name, task, theirs[task], ours[task])
        if name == "solution":
            assert sum(ours.values()) == 100
        elif name == "stubs":
            assert sum(ours.values()) == 0
        else:
            assert [t for t, s in ours.items() if s < load_rubric(KIT_ROOT / "assignment.toml").points[t]], name


def test_are_the_student_copys_test_files_the_tests_in_its_metadata(dist):
    """dist/student/tests/ (the kit's, for otter check) holds exactly the tests otter assign put in the
    student notebook's metadata (what grader.check runs on a notebook alone), with no points given."""
    student = dist / "student"
    meta = nbformat.read(student / "backprop.ipynb", as_version=4).metadata["otter"]["tests"]
    files = {}
    for path in sorted((student / "tests").glob("*.py")):
        namespace: dict = {}
        exec(path.read_text(), namespace)
        files[path.stem] = namespace["test"]
    assert sorted(files) == sorted(meta)
    for name, test in files.items():
        assert test["points"] is None and {**test, "points": 0} == {**meta[name], "points": 0}, name


def test_does_otter_check_on_the_command_line_show_the_failing_case_then_all_passed(dist, tmp_path):
    """`otter check backprop.ipynb -q mul` in a copy of dist/student, as otter runs it (exit 0 either way):
    with mul's `+=` written `=`, mul's section names a failing mul case with the kit's message and no
    crash (no 0/0: the tests carry points); with everything solved, otter's "All tests passed!"."""
    wrong = tmp_path / "wrong"
    shutil.copytree(dist / "student", wrong)
    solved(filled(dist, wrong / "backprop.ipynb", mistake="mul_overwrites"))
    done = otter_check(wrong, "mul")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "All tests passed!" not in done.stdout
    mul = results(done.stdout)["mul"]
    assert "Test case failed" in mul and "[failed]" in mul and "Traceback" not in mul, mul[:3000]
    assert re.search(r"^\s+mul/\S+: ", mul, flags=re.M), mul[:3000]

    right = tmp_path / "right"
    shutil.copytree(dist / "student", right)
    solved(filled(dist, right / "backprop.ipynb"))
    done = otter_check(right, "mul")
    assert done.returncode == 0 and done.stdout.strip() == "All tests passed!", done.stdout[-3000:] + done.stderr[-3000:]
