"""Can a symbolic link, or a student's zip posing as an LMS download, buy marks or an identity?

A student folder holding only a link to a correct solution elsewhere (a folder link, a link
to a zip, a link to engine.py inside micrograd/) once scored 100; a student's zip holding a
submission_metadata.yml, given with the class (`grade submissions/*`), once created five
students and graded its code under another student's id.
"""
from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from autograder.batch.discover import discover
from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.paths import SOLUTIONS

RUBRIC = Rubric(hidden_seed=99)


def _solution_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for f in (SOLUTIONS / "micrograd").glob("*.py"):
            z.write(f, f"micrograd/{f.name}")
    return path


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """A correct solution outside the class folder, as a folder and as a zip."""
    root = tmp_path / "elsewhere"
    shutil.copytree(SOLUTIONS / "micrograd", root / "work" / "micrograd")
    _solution_zip(root / "work.zip")
    return root


@pytest.mark.parametrize("how", ["folder-link", "zip-link", "link-inside-folder", "file-links"])
def test_does_a_link_out_of_the_submission_earn_nothing(tmp_path, elsewhere, how):
    klass = tmp_path / "class"
    klass.mkdir()
    student = klass / "mallory"
    if how == "folder-link":
        os.symlink(elsewhere / "work", student)
    elif how == "zip-link":
        os.symlink(elsewhere / "work.zip", klass / "mallory.zip")
    elif how == "link-inside-folder":
        student.mkdir()
        os.symlink(elsewhere / "work" / "micrograd", student / "micrograd")
    else:
        (student / "micrograd").mkdir(parents=True)
        for f in (elsewhere / "work" / "micrograd").glob("*.py"):
            os.symlink(f, student / "micrograd" / f.name)
    found = discover([klass], tmp_path / "work")
    assert [e.student for e in found.entries] == ["mallory"], "the row is there"
    report = grade_path(found.entries[0].path, rubric=RUBRIC, include_hidden=False)
    assert report.score == 0
    said = (report.error or "") + " ".join(report.notes)
    assert "link" in said


def test_is_a_students_zip_with_gradescope_metadata_among_several_paths_one_submission(tmp_path):
    subs = tmp_path / "submissions"
    subs.mkdir()
    evil = subs / "eve.zip"
    with zipfile.ZipFile(evil, "w") as z:
        z.writestr("submission_metadata.yml", "submission_1:\n  :submitters:\n  - :name: Victim\n    :sid: '1'\n"
                   "submission_2:\n  :submitters:\n  - :name: Other\n    :sid: '2'\n")
        z.writestr("submission_1/engine.py", "x = 1\n")
        z.writestr("submission_2/engine.py", "x = 2\n")
    _solution_zip(subs / "victim.zip")
    found = discover(sorted(subs.iterdir()), tmp_path / "work")
    assert sorted(e.student for e in found.entries) == ["eve", "victim"]
    assert {e.path for e in found.entries} == {evil, subs / "victim.zip"}  # each the student's own zip


def test_is_a_canvas_named_student_folder_among_several_paths_not_a_download(tmp_path):
    a = tmp_path / "alice"
    a.mkdir()
    (a / "victim_1001_5001_engine.py").write_text("x = 1\n")
    (a / "victim_1001_5002_nn.py").write_text("x = 1\n")
    b = tmp_path / "bob.py"
    b.write_text("x = 1\n")
    found = discover([a, b], tmp_path / "work")
    assert not any(e.source == "canvas" for e in found.entries)
    assert any("given among several paths" in p for p in found.problems)
