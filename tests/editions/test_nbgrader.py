"""Does the nbgrader edition work with the real nbgrader, give the kit's grades, and release nothing hidden?

`autograder export nbgrader COURSE --assignment hw1`, then nbgrader 0.9.6 as its docs say:
generate_assignment, students' notebooks under submitted/<student>/hw1/, autograde (--create makes
the students), export (grades.csv) and generate_feedback. nbgrader's facts relied on: a test cell's
numeric last expression is its points (partial credit); autograding runs the kernel with
NBGRADER_EXECUTION=autograde; a locked cell released other than its source (a `### BEGIN HIDDEN
TESTS` block left out) is warned about at every autograde (upstream issue #1961), so the kit's test
cells have none and name the instructor's kit_secret/ path in plain sight (a path only: hidden tests
reach students' feedback anyway, upstream issues #917 and #1363); nbgrader's database migrations run
`alembic` from PATH.
"""
from __future__ import annotations

import csv
import re
import os
import subprocess
import sys
from dataclasses import replace
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
SEED = "918273645"
BIN = Path(sys.executable).parent
STUDENTS = {"solution": None, "stubs": "stubs", "exploring": None, **{m: m for m in MISTAKES}}
# a right solution with cells of the student's own that raise, as nbgrader runs past them
EXPLORING = ["a = Value(2.0); b = a * a; b.backward()\nassert a.grad == 5, 'my own check'",
             "print(a_name_from_a_cell_since_deleted)"]


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def submit(course: Path, student: str, nb) -> None:
    """A student's notebook where nbgrader's collect puts it: submitted/<student>/hw1/, with its timestamp."""
    folder = course / "submitted" / student / "hw1"
    folder.mkdir(parents=True)
    nbformat.write(nb, str(folder / "backprop.ipynb"))
    (folder / "timestamp.txt").write_text("2025-03-01 12:00:00.000000 UTC\n")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("nbgrader") / "course"
    mp = pytest.MonkeyPatch()
    mp.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    try:
        assert main(["export", "nbgrader", str(course), "--assignment", "hw1"]) == 0
    finally:
        mp.undo()
    nbgrader(course, "generate_assignment", "hw1", "--force")
    released = nbformat.read(course / "release" / "hw1" / "backprop.ipynb", as_version=4)
    for student, mistake in STUDENTS.items():
        nb = nbformat.from_dict(released)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution") and mistake != "stubs":
                solved = warmup.solved() if meta["grade_id"] == "warmup" else module_source(meta["grade_id"])
                cell.source = with_mistake(solved, mistake)
        if student == "exploring":  # right after the engine's cell
            at = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "engine")
            nb.cells[at + 1:at + 1] = [nbformat.v4.new_code_cell(source) for source in EXPLORING]
        submit(course, student, nb)
    nbgrader(course, "autograde", "hw1", "--create", "--force")
    nbgrader(course, "export")
    nbgrader(course, "generate_feedback", "hw1", "--force")
    return course


def kit_report(notebook: Path):
    rubric = replace(load_rubric(KIT_ROOT / "assignment.toml"), hidden_seed=int(SEED))
    return grade_path(notebook, rubric=rubric, include_hidden=True)


def test_is_nothing_hidden_released_nor_fed_back(course):
    for folder in (course / "release", course / "feedback"):
        for path in (p for p in folder.rglob("*") if p.is_file()):
            text = path.read_text(errors="replace")
            assert SEED not in text, path
            if path.suffix in (".ipynb", ".html"):
                assert not re.search(r"\b[a-z_]+/hidden-\d+", text), path  # no hidden case is named
    release = (course / "release" / "hw1" / "backprop.ipynb").read_text()
    assert "BEGIN HIDDEN TESTS" not in release
    # the only trace of kit_secret/ is where it is, in each test cell
    assert set(re.findall(r"[./]*kit_secret[\w/]*", release)) == {"../../../kit_secret/hw1"}
    assert "self.grad += out.grad" not in release and "raise NotImplementedError()" in release
    assert not (course / "release" / "hw1" / "kit_secret").exists()


def test_are_nbgraders_grades_the_kits_per_student_and_per_task(course):
    from nbgrader.api import Gradebook

    exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(open(course / "grades.csv"))}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in STUDENTS:
            report = kit_report(course / "submitted" / student / "hw1" / "backprop.ipynb")
            assert exported[student] == pytest.approx(report.score, abs=1e-6), student
            assert gb.find_grade("test_warmup", "backprop", "hw1", student).max_score == 0
            for task in report.tasks:
                cell = gb.find_grade(f"test_{task.id}", "backprop", "hw1", student)
                assert cell.score == pytest.approx(task.score, abs=1e-6), (student, task.id)
    assert exported["solution"] == exported["exploring"] == 100 and exported["stubs"] == 0
    assert all(0 < exported[m] < 100 for m in MISTAKES)


def test_does_autograder_grade_on_the_course_folder_give_the_same_grades(course, tmp_path, monkeypatch):
    """The tamper-proof route: the kit grades nbgrader's submitted/ tree itself, with the same result."""
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    assert main(["grade", str(course), "--out", str(tmp_path / "out")]) in (0, 1)
    ours = {r["student"]: float(r["score"]) for r in csv.DictReader(open(tmp_path / "out" / "gradebook.csv"))}
    exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(open(course / "grades.csv"))}
    assert ours == pytest.approx(exported, abs=0.005)  # the gradebook shows two decimals
