"""Does a rerun cost what changed (issue 32, item 2)? Each class file is left alone when what it is made from is
unchanged, and what a rerun writes is byte for byte what a fresh grading of the same folder writes.

(The figures are benchmarks/bench_scale.py's; these pin the behaviour, by what is made and written, not by the clock.)
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from autograder.report import histogram
from autograder.batch.run import grade_batch
from autograder.config import Rubric
from batch_fakes import entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)
NAMES = [f"s{i:03d}" for i in range(10)]


def run(entries, out):
    return grade_batch(entries, out, rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2)


def class_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith(("gradebook.sqlite", ".autograder", "regrade-changes"))}


def run_fresh(entries, tmp_path: Path) -> Path:
    """The same class graded into a new folder: what every rerun's files must equal, byte for byte."""
    fresh = tmp_path / "fresh"
    run(entries, fresh)
    return fresh


def stamps(out: Path) -> dict[str, tuple[int, int]]:
    """Each file's (inode, mtime): a file written again (atomically: a new inode) shows here."""
    return {rel: ((st := os.stat(out / rel)).st_ino, st.st_mtime_ns) for rel in class_files(out)}


@pytest.fixture
def klass(tmp_path):
    plans = {s: {"fail": ("mul",) if i % 3 == 0 else ()} for i, s in enumerate(NAMES)}
    return [entry(s, submission(tmp_path / "in", s, **p), late=s == "s005") for s, p in plans.items()]


def replan(tmp_path: Path, student: str, **changes) -> None:
    plan_file = tmp_path / "in" / student / "plan.json"
    plan_file.write_text(json.dumps({**json.loads(plan_file.read_text()), **changes}))


@pytest.fixture
def drawn(monkeypatch):
    """The histograms drawn (histogram_png calls)."""
    seen = {"draw": 0}
    real_draw = histogram.histogram_png

    def draw(summary):
        seen["draw"] += 1
        return real_draw(summary)

    monkeypatch.setattr(histogram, "histogram_png", draw)
    return seen


def test_does_a_rerun_whose_scores_keep_their_bins_leave_the_histogram_alone(klass, tmp_path, drawn):
    out = tmp_path / "out"
    run(klass, out)
    assert drawn["draw"] == 1
    before = stamps(out)
    replan(tmp_path, "s003", fail=["tanh"])  # another task failed, as many points: the summary changes, its bins not
    again = run(klass, out)
    after = stamps(out)
    assert again.graded == 1 and drawn["draw"] == 1  # not drawn again
    assert after["summary.json"] != before["summary.json"]
    assert after["score_histogram.png"] == before["score_histogram.png"]
    assert after["feedback/s003.html"] != before["feedback/s003.html"]  # the student's own page is new
    assert after["feedback/s004.html"] == before["feedback/s004.html"]  # nobody else's
    assert class_files(out) == class_files(run_fresh(klass, tmp_path))


def test_is_the_histogram_drawn_again_when_a_score_moves_to_another_bin(klass, tmp_path, drawn):
    out = tmp_path / "out"
    run(klass, out)
    before = stamps(out)
    replan(tmp_path, "s001", fail=["add", "mul", "tanh", "exp", "backward"])
    run(klass, out)
    assert drawn["draw"] == 2 and stamps(out)["score_histogram.png"] != before["score_histogram.png"]
    assert class_files(out) == class_files(run_fresh(klass, tmp_path))


def test_does_a_rerun_decide_what_to_grade_before_reading_any_brief(klass, tmp_path, monkeypatch):
    from autograder.batch import executors
    from autograder.batch.store import Store

    out = tmp_path / "out"
    run(klass, out)
    replan(tmp_path, "s002", fail=["exp"])
    seen: list = []
    real_rows_of, real_grade = Store.rows_of, executors.LocalPool.grade

    def rows_of(self, wanted):  # every read of stored rows (their briefs) is a walk of rows_of (class_rows.py)
        wanted = list(wanted)
        if wanted:
            seen.append(("rows", len(wanted)))
        return real_rows_of(self, wanted)

    def grade(self, jobs, **kw):
        jobs = list(jobs)
        seen.append(("grade", [j.student for j in jobs]))
        return real_grade(self, jobs, **kw)

    monkeypatch.setattr(Store, "rows_of", rows_of)
    monkeypatch.setattr(executors.LocalPool, "grade", grade)
    again = run(klass, out)
    # the workers were handed their one job before a brief was read, and then only the reused rows' were read
    # (while the workers graded: unchanged.EarlyFiles); the class's files walk every row after
    assert seen[:2] == [("grade", ["s002"]), ("rows", len(klass) - 1)] and again.graded == 1
    assert class_files(out) == class_files(run_fresh(klass, tmp_path))


def test_does_a_new_gradebook_keep_each_rows_brief_before_its_report(tmp_path):
    """A rerun reads every row's brief: in front of the report (tens of KB, in overflow pages), SQLite reads it
    without walking the report's pages."""
    import sqlite3

    from autograder.batch.store import Store

    with Store(tmp_path / "gradebook.sqlite"):
        pass
    columns = [c[1] for c in sqlite3.connect(tmp_path / "gradebook.sqlite").execute("PRAGMA table_info(grades)")]
    assert columns.index("brief") < columns.index("report") and columns.index("digest") < columns.index("report")


def test_are_the_reused_rows_files_checked_once_while_the_worker_starts(klass, tmp_path, monkeypatch):
    from autograder.batch.outputs import OutputFiles

    out = tmp_path / "out"
    run(klass, out)
    replan(tmp_path, "s006", fail=["relu"])
    checked: list[str] = []
    real = OutputFiles.write_student

    def write_student(self, row):
        checked.append(row.student)
        return real(self, row)

    monkeypatch.setattr(OutputFiles, "write_student", write_student)
    run(klass, out)
    others = [s for s in NAMES if s != "s006"]
    # every other student's files once, before s006's are written (as it is stored, and checked at the end)
    assert checked == [*others, "s006", "s006"]
    assert class_files(out) == class_files(run_fresh(klass, tmp_path))


def test_is_a_reused_rows_file_overwritten_during_the_grading_still_written_again(klass, tmp_path):
    out = tmp_path / "out"
    run(klass, out)
    target = out / "feedback" / "s001.html"
    replan(tmp_path, "s002", fail=["exp"], overwrite={str(target): "FORGED"})  # as unsandboxed code could
    run(klass, out)
    assert b"FORGED" not in target.read_bytes()
    replan(tmp_path, "s002", overwrite={})
    assert class_files(out) == class_files(run_fresh(klass, tmp_path))
