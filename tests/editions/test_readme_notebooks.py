"""Do the README's notebook sections, followed literally, give a newcomer a working grader.check and a
clean nbgrader autograde, ending in the kit's own messages?

Each ```sh block of "Jupyter courses: otter-grader" and "... nbgrader" runs as written in bash (the
seed filled in), from a folder holding the kit's .venv, as the README says: in the kit's folder, the
venv activated. Students' work in between is done as students do it: the notebook from the folder
they were given, edited and saved, run in a real Jupyter kernel (nbclient).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from autograder.notebooks.solution_cells import module_source
from autograder.notebooks.support import ALONE
from autograder.paths import KIT_ROOT
from notebook_mistakes import with_mistake

pytestmark = pytest.mark.slow
SEED = "5150"
KEYS = (("engine", "class Value"), ("nn", "class Neuron"), ("train", "def mse_loss"))


def blocks(title: str) -> list[str]:
    """The ```sh blocks of the README's section `### title`, in order."""
    text = (KIT_ROOT / "README.md").read_text()
    section = text.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, flags=re.S)


def sh(block: str, cwd: Path, root: Path) -> str:
    """A README block in bash as written; a later block runs where the one before left off, the venv
    still activated (the README's first line of the section)."""
    script = block.replace("<your number>", SEED)
    if ". .venv/bin/activate" not in script:
        script = f". {root / '.venv' / 'bin' / 'activate'}\n{script}"
    done = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=1200,
                          env={k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "AUTOGRADER_HIDDEN_SEED")})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def a_kit_folder(tmp_path: Path) -> Path:
    root = tmp_path / "kit"
    root.mkdir()
    (root / ".venv").symlink_to(KIT_ROOT / ".venv")
    return root


def solve(notebook: Path, mistake: str | None) -> None:
    """The student's work: the code cells written (with mistakes), the notebook saved."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        for module, key in KEYS:
            if cell.cell_type == "code" and key in cell.source and "BEGIN SOLUTION" not in cell.source:
                cell.source = with_mistake(module_source(module), mistake)
    nbformat.write(nb, str(notebook))


def run_in_kernel(notebook: Path) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(notebook.parent)}},
                   allow_errors=True).execute()
    return nb


def check_output(nb, task: str) -> str:
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.strip() == f'grader.check("{task}")')
    return "\n".join(o.get("text", "") or json.dumps(o.get("data", {})) for o in cell.outputs)


def test_does_the_otter_section_lead_to_the_kits_messages_in_grader_check_and_its_scores(tmp_path):
    root = a_kit_folder(tmp_path)
    assign, check, grade = blocks("Jupyter courses: otter-grader")
    sh(assign, root, root)
    dist = root / "hw1-otter" / "dist"

    # a student with the whole dist/student folder: two mistakes, saved, checked in a kernel
    ana = tmp_path / "ana"
    shutil.copytree(dist / "student", ana)
    solve(ana / "backprop.ipynb", "add_and_walk")
    shown = check_output(run_in_kernel(ana / "backprop.ipynb"), "add")
    assert "[failed]" in shown and "add/" in shown, shown[:3000]
    assert "Traceback" not in shown

    # the same student from a terminal, in the folder, with otter's own command: add's failing cases
    said = sh(check, ana, root)
    parts = re.split(r"^(\w+) results:", said, flags=re.M)  # otter's `<question> results:` sections
    add = dict(zip(parts[1::2], parts[2::2]))["add"]
    assert "Test case failed" in add and "[failed]" in add and re.search(r"^\s+add/\S+: ", add, flags=re.M), add[:3000]
    assert "All tests passed!" not in said and "ZeroDivisionError" not in said

    # a student with the notebook alone: one line, no traceback
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(dist / "student" / "backprop.ipynb", lone)
    shown = check_output(run_in_kernel(lone / "backprop.ipynb"), "mul")
    assert ALONE in shown and "ModuleNotFoundError" not in shown and "Traceback" not in shown, shown[:3000]

    # grading with otter run, as the README says: the kit's scores
    shutil.copy(ana / "backprop.ipynb", root / "hw1-otter" / "submission.ipynb")
    sh(grade, root / "hw1-otter", root)
    tests = json.loads((root / "hw1-otter" / "results" / "results.json").read_text())["tests"]
    scores = {t["name"]: t["score"] for t in tests if "score" in t}
    kit = subprocess.run([str(root / ".venv" / "bin" / "autograder"), "grade", str(ana / "backprop.ipynb"),
                          "--format", "json"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "AUTOGRADER_HIDDEN_SEED": SEED})
    ours = {t["id"]: t["score"] for t in json.loads(kit.stdout)["tasks"]}
    assert all(abs(scores[task] - score) < 1e-5 for task, score in ours.items()), (scores, ours)
    assert ours["add"] < 5


def test_does_the_nbgrader_section_autograde_cleanly_and_keep_the_stubs_message(tmp_path):
    root = a_kit_folder(tmp_path)
    generate, autograde = blocks("Jupyter courses: nbgrader")[:2]  # then the trust route, on its own
    sh(generate, root, root)
    course = root / "my-course"
    released = course / "release" / "hw1" / "backprop.ipynb"
    for student, mistake in (("untouched", "stubs"), ("bo", "add_and_walk")):
        folder = course / "submitted" / student / "hw1"
        folder.mkdir(parents=True)
        shutil.copy(released, folder / "backprop.ipynb")
        if mistake != "stubs":
            solve(folder / "backprop.ipynb", mistake)
    said = sh(autograde, course, root)
    assert "checksum" not in said and "has changed" not in said, said[-3000:]
    assert (course / "grades.csv").is_file()

    nb = nbformat.read(course / "autograded" / "untouched" / "hw1" / "backprop.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_mul")
    shown = "\n".join(o.get("text", "") for o in cell.outputs)
    assert "not written yet: mul: add each input" in shown, shown
    assert not re.search(r"not written yet: *$", shown, flags=re.M)
