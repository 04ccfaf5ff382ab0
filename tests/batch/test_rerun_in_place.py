"""Does a rerun with one submission to grade grade it in the grading process, with the verdict a pool gives?
(Real grader, real sandbox: batch/in_place.py.)"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder import paths
from autograder.batch import pool
from autograder.batch.run import grade_batch
from autograder.config import Rubric

RUBRIC = Rubric(hidden_seed=1234)


def class_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith(("gradebook.sqlite", ".autograder", "regrade-changes"))}


def run(folder: Path, out: Path):
    from autograder.batch.discover import discover

    found = discover([folder])
    return grade_batch(found.entries, out, rubric=RUBRIC, workers=2, progress=False, intake=found.problems)


def test_is_one_changed_submission_graded_here_as_a_pool_grades_it(tmp_path, monkeypatch):
    klass = tmp_path / "class"
    for name in ("ada", "ben", "cai"):
        shutil.copytree(paths.SOLUTIONS, klass / name)
    out = tmp_path / "out"
    run(klass, out)
    shutil.rmtree(klass / "ben")
    shutil.copytree(paths.EXERCISES, klass / "ben")  # ben's work replaced by the stubs: every task fails

    with monkeypatch.context() as m:
        m.setattr(pool, "_Pool", lambda *a, **k: pytest.fail("a pool started for one submission"))
        again = run(klass, out)
    assert again.graded == 1 and again.reused == 2
    assert [r.report.score for r in again.rows] == [RUBRIC.max_score, 0, RUBRIC.max_score]
    fresh = tmp_path / "fresh"
    run(klass, fresh)  # three to grade: the pool's workers
    assert class_files(out) == class_files(fresh)
