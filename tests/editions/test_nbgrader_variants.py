"""Does nbgrader's autograding grade each student against their own variant, as `autograder grade` does?

nbgrader releases one notebook to the whole class, so the variants it carries are those that need no
notebook of the student's own: here the hidden layers' activation. `autograder export nbgrader --roster`,
then nbgrader 0.9.6's generate_assignment, submitted/<student>/hw1/, autograde and export: a Neuron that
always applies tanh loses points exactly for the students whose variant is relu, in nbgrader's grades and
in `autograder grade` of the same course folder (which draws the variant from nbgrader's student id).
"""
from __future__ import annotations

import csv
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.config import from_mapping
from autograder.notebooks import warmup
from autograder.notebooks.solution_cells import module_source
from autograder.variants.assign import variant_of
from test_nbgrader import nbgrader, submit

pytestmark = pytest.mark.slow
TOML = 'hidden_seed = 918273645\n\n[variants]\nvary = ["activation"]\n'
COURSE = from_mapping({"hidden_seed": 918273645, "variants": {"vary": ["activation"]}})
IDS = [f"s{i}" for i in range(12)]
TANH_ONLY = ("return act.tanh() if self.activation == 'tanh' else act.relu()", "return act.tanh()")


def _pick() -> dict[str, tuple[str, bool]]:
    """student -> (activation, whether their Neuron always applies tanh): each case of the two once or more."""
    by = {a: [s for s in IDS if variant_of(COURSE, s).activation == a] for a in ("tanh", "relu")}
    assert len(by["tanh"]) >= 2 and len(by["relu"]) >= 2, by
    return {by["relu"][0]: ("relu", False), by["relu"][1]: ("relu", True),
            by["tanh"][0]: ("tanh", False), by["tanh"][1]: ("tanh", True)}


STUDENTS = _pick()


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("nbgrader-variants")
    (root / "assignment.toml").write_text(TOML)
    (root / "roster.csv").write_text("id\n" + "\n".join(IDS) + "\n")
    course = root / "course"
    assert main(["export", "nbgrader", str(course), "--assignment", "hw1", "--config", str(root / "assignment.toml"),
                 "--roster", str(root / "roster.csv")]) == 0
    nbgrader(course, "generate_assignment", "hw1", "--force")
    released = nbformat.read(course / "release" / "hw1" / "backprop.ipynb", as_version=4)
    for student, (_, tanh_only) in STUDENTS.items():
        nb = nbformat.from_dict(released)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution"):
                solved = warmup.solved() if meta["grade_id"] == "warmup" else module_source(meta["grade_id"])
                cell.source = solved.replace(*TANH_ONLY) if tanh_only else solved
        submit(course, student, nb)
    nbgrader(course, "autograde", "hw1", "--create", "--force")
    nbgrader(course, "export")
    return root


def test_does_autograding_grade_each_student_against_their_own_activation(course):
    exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(open(course / "course" / "grades.csv"))}
    for student, (activation, tanh_only) in STUDENTS.items():
        if tanh_only and activation == "relu":
            assert exported[student] < 100, (student, exported[student])
        else:
            assert exported[student] == pytest.approx(100), (student, activation, exported[student])


def test_does_autograder_grade_on_the_course_folder_give_the_same_grades_and_variants(course, tmp_path):
    assert main(["grade", str(course / "course"), "--out", str(tmp_path / "out"),
                 "--config", str(course / "assignment.toml")]) in (0, 1)
    rows = {r["student"]: r for r in csv.DictReader(open(tmp_path / "out" / "gradebook.csv"))}
    exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(open(course / "course" / "grades.csv"))}
    for student, (activation, _) in STUDENTS.items():
        assert float(rows[student]["score"]) == pytest.approx(exported[student], abs=0.005), student
        assert activation in rows[student]["variant"], rows[student]

