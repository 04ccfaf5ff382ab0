"""A resumed batch rewrites only what changed, and still leaves every output file right."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from autograder.batch.lock import LOCK_NAME
from autograder.batch.outputs import write_outputs
from autograder.batch.run import grade_batch
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import calls, entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)


@pytest.fixture
def log(tmp_path) -> Path:
    return tmp_path / "calls.log"


def run(entries, out, **kw):
    kw.setdefault("workers", 1)
    return grade_batch(entries, out, rubric=RUBRIC, grade_one=grade_fake, progress=False, **kw)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.startswith("gradebook.sqlite") and p.name != LOCK_NAME}


def full_rows(out: Path, rows):
    """The rows with their full reports, read from out's store (a batch's rows hold briefs: batch/brief.py)."""
    from autograder.batch.regrade import LastClass
    with Store(out / "gradebook.sqlite") as store:
        last = LastClass.read(store)
        return [store.get(r.student, last.keys[r.student]) if r.brief else r for r in rows]


def stats(root: Path) -> dict[str, tuple[int, int, int]]:
    return {rel: (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
            for rel in files(root) for st in [os.stat(root / rel)]}


def a_class(tmp_path, log=None, **plans):
    return [entry(s, submission(tmp_path / "in", s, log=log, **plan), late=s == "ben")
            for s, plan in (plans or {"ana": {}, "ben": {"fail": ("mul",)}, "cai": {"do": "raise"}}).items()]


def test_a_resume_with_nothing_new_writes_no_file_and_changes_none(tmp_path):
    entries = a_class(tmp_path)
    run(entries, tmp_path / "out")
    before, stat_before = files(tmp_path / "out"), stats(tmp_path / "out")

    result = run(entries, tmp_path / "out")

    assert result.graded == 1  # cai's grading crashed: retried, and it crashes the same way
    assert files(tmp_path / "out") == before
    unchanged = {rel for rel, st in stats(tmp_path / "out").items() if st == stat_before[rel]}
    assert unchanged >= {"reports/ana.json", "feedback/ana.html", "reports/ben.json", "feedback/ben.html",
                         "gradebook.csv", "summary.json", "summary.md", "summary.html", "score_histogram.png"}


def test_a_resume_puts_back_what_was_deleted_edited_or_replaced(tmp_path):
    entries = a_class(tmp_path)
    run(entries, tmp_path / "out")
    out = tmp_path / "out"
    clean = files(out)
    (out / "reports" / "ana.json").unlink()
    (out / "score_histogram.png").unlink()
    with open(out / "feedback" / "ben.html", "r+b") as f:  # same size, same inode
        f.write(b"X")
    (out / "gradebook.csv").write_text("student,score\nana,100\n")
    tmp = out / "summary.md.new"
    tmp.write_text((out / "summary.md").read_text().replace("| 3 |", "| 4 |"))
    os.replace(tmp, out / "summary.md")

    run(entries, out)

    assert files(out) == clean


def test_a_regraded_submission_rewrites_its_own_files_and_the_class_files_only(tmp_path):
    entries = a_class(tmp_path, ana={}, ben={})
    run(entries, tmp_path / "out")
    stat_before = stats(tmp_path / "out")
    shutil.rmtree(tmp_path / "in" / "ben")
    entries = a_class(tmp_path, ana={}, ben={"fail": ("add",)})

    run(entries, tmp_path / "out")

    changed = {rel for rel, st in stats(tmp_path / "out").items() if st != stat_before.get(rel)}
    # (not the histogram: 100 and 95 share its top bin, batch/unchanged.py)
    assert changed == {"reports/ben.json", "feedback/ben.html", "gradebook.csv", "summary.json", "summary.md",
                       "summary.html", "regrade-changes.csv", "regrade-changes.md"}
    assert (tmp_path / "out" / "regrade-changes.csv").read_text().splitlines()[1].startswith(
        "ben,100,95,100,add 5 -> 0,\"the student's code changed")   # what moved, and why
    fresh = tmp_path / "fresh"
    run(entries, fresh)
    regraded = files(tmp_path / "out")
    assert {k: v for k, v in regraded.items() if not k.startswith("regrade-changes")} == files(fresh)


def test_an_output_written_early_and_then_overwritten_during_grading_is_written_again(tmp_path, log):
    out = tmp_path / "out"
    entries = a_class(tmp_path, log=log, ana={}, ben={
        "overwrite": {str(out / "reports" / "ana.json"): "FORGED", str(out / "feedback" / "ana.html"): "FORGED"}})
    result = run(entries, out, workers=1)

    assert calls(log) == ["ana", "ben"] and not result.ungradable
    assert b"FORGED" not in (out / "reports" / "ana.json").read_bytes()
    assert b"FORGED" not in (out / "feedback" / "ana.html").read_bytes()
    clean = tmp_path / "clean"
    write_outputs(clean, full_rows(out, result.rows))
    assert files(out) == files(clean)


def test_the_same_rows_without_a_store_give_the_same_files(tmp_path):
    entries = a_class(tmp_path)
    result = run(entries, tmp_path / "out")
    write_outputs(tmp_path / "plain", full_rows(tmp_path / "out", result.rows))
    assert files(tmp_path / "out") == files(tmp_path / "plain")


def test_a_changed_renderer_renders_every_file_again(tmp_path, monkeypatch):
    from autograder.batch import outputs

    entries = a_class(tmp_path)
    run(entries, tmp_path / "out")
    stat_before = stats(tmp_path / "out")
    monkeypatch.setattr(outputs, "_renderers", lambda: "another version of the templates")

    run(entries, tmp_path / "out")

    changed = {rel for rel, st in stats(tmp_path / "out").items() if st != stat_before[rel]}
    assert {"reports/ana.json", "feedback/ana.html", "score_histogram.png"} <= changed


def test_the_store_remembers_the_files_it_wrote(tmp_path):
    run(a_class(tmp_path), tmp_path / "out")
    with Store(tmp_path / "out" / "gradebook.sqlite") as store:
        record = store.outputs()
    assert set(record) == set(files(tmp_path / "out")) | {"@class"}  # and what the class's files were made from


def test_does_a_reused_out_drop_the_files_of_students_no_longer_in_the_class(tmp_path):
    """ana, ben and cai graded, then ana, ben and dan (another class: not a part of the last one): cai's report
    and page go (the gradebook has no cai); a file the kit did not write (or one edited since) stays, and is
    listed. (A run of a part of the last class updates it in place: test_regrade.py.)"""
    entries = a_class(tmp_path)
    run(entries, tmp_path / "out")
    (tmp_path / "out" / "reports" / "notes.txt").write_text("the TA's own notes")
    result = run(entries[:2] + a_class(tmp_path, dan={}), tmp_path / "out")
    left = files(tmp_path / "out")
    assert "reports/cai.json" not in left and "feedback/cai.html" not in left
    assert {"reports/ana.json", "feedback/ana.html", "reports/ben.json", "feedback/ben.html"} <= set(left)
    assert result.written.removed == ("feedback/cai.html", "reports/cai.json")
    assert result.written.kept == ("reports/notes.txt",) and "reports/notes.txt" in left
