"""A class's output folder as a term goes on: the roster as the class list, a few students regraded in place,
and a regrade that says what changed for whom, and why."""
from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

from autograder.batch.class_list import Roster, load_roster
from autograder.batch.run import grade_batch
from autograder.config import Rubric
from autograder.lms.graded import read_graded
from autograder.variants.assign import variant_of
from batch_fakes import entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)


def run(entries, out, rubric=RUBRIC, **kw):
    return grade_batch(entries, out, rubric=rubric, grade_one=grade_fake, progress=False, workers=1, **kw)


def a_class(tmp_path: Path, **plans):
    return [entry(s, submission(tmp_path / "in", s, **plan)) for s, plan in plans.items()]


def gradebook(out: Path) -> dict[str, dict]:
    return {r["student"]: r for r in csv.DictReader((out / "gradebook.csv").read_text().splitlines())}


def test_does_regrading_one_student_into_the_class_folder_keep_the_others(tmp_path):
    """`grade CLASS/ben --out OUT` after the whole class: ben's row updated, ana's and cai's as they were."""
    out = tmp_path / "out"
    run(a_class(tmp_path, ana={}, ben={}, cai={"fail": ("mul",)}), out)
    pages = {p.name: p.read_bytes() for p in (out / "feedback").iterdir()}

    result = run(a_class(tmp_path, ben={"fail": ("add",)}), out)

    rows = gradebook(out)
    assert list(rows) == ["ana", "ben", "cai"]
    assert rows["ben"]["add"] == "0" and rows["cai"]["mul"] == "0" and rows["ana"]["score"] == "100"
    assert result.kept == 2 and result.written.removed == ()
    assert (out / "feedback" / "ana.html").read_bytes() == pages["ana.html"]
    assert json.loads((out / "summary.json").read_text())["submissions"] == 3


def test_does_a_regrade_after_a_tolerance_change_say_whose_score_moved_and_why(tmp_path):
    out = tmp_path / "out"
    entries = a_class(tmp_path, ana={}, ben={})
    run(entries, out)
    looser = replace(RUBRIC, rel_tol=1e-4, points={**RUBRIC.points, "add": 7.0})

    result = run(entries, out, rubric=looser)

    assert result.changed == 2
    changes = list(csv.DictReader((out / "regrade-changes.csv").read_text().splitlines()))
    assert [c["student"] for c in changes] == ["ana", "ben"]
    assert changes[0]["old_score"] == "100" and changes[0]["new_score"] == "102"
    assert changes[0]["tasks"] == "add 5 -> 7"
    assert "the relative tolerance changed (1e-06 -> 0.0001)" in changes[0]["why"]
    assert "add's points changed (5 -> 7)" in changes[0]["why"]
    assert "2 score(s) changed" in (out / "regrade-changes.md").read_text()


def test_does_the_roster_name_unrostered_and_missing_students(tmp_path):
    """Without [variants] an unrostered submission is graded all the same, and named; a rostered student with
    no submission has a row of their own, status missing."""
    out = tmp_path / "out"
    (tmp_path / "roster.csv").write_text("id,name\nana,Ana\nben,Ben\ndee,Dee\n")

    result = run(a_class(tmp_path, ana={}, ben={}, zed={}), out, roster=load_roster(tmp_path / "roster.csv"))

    rows = gradebook(out)
    assert rows["zed"]["status"] == "unrostered" and rows["zed"]["score"] == "100"
    assert rows["dee"]["status"] == "missing" and rows["dee"]["score"] == "" and rows["dee"]["error"] == "no submission"
    assert rows["ana"]["status"] == "graded"
    summary = json.loads((out / "summary.json").read_text())["roster"]
    assert summary["missing"] == ["dee"] and summary["unrostered"] == [{"submission": "zed", "id": "zed"}]
    assert "- dee" in (out / "summary.md").read_text()
    page = (out / "summary.html").read_text()
    assert "<h2>Roster</h2>" in page and "<li>dee</li>" in page and "<li>zed (id zed)</li>" in page
    assert result.roster.missing == ("dee",)
    assert {g.student: g.status for g in read_graded(out)}["dee"] == "missing"


def test_does_the_folder_remember_its_roster_and_take_a_late_student(tmp_path):
    """A late student graded alone into the folder (no --roster again): added, and the class kept."""
    out = tmp_path / "out"
    (tmp_path / "roster.csv").write_text("id\nana\nben\ndee\n")
    run(a_class(tmp_path, ana={}, ben={}), out, roster=load_roster(tmp_path / "roster.csv"))

    run(a_class(tmp_path, dee={"fail": ("tanh",)}), out)

    rows = gradebook(out)
    assert list(rows) == ["ana", "ben", "dee"]
    assert rows["dee"]["status"] == "graded" and rows["dee"]["tanh"] == "0"
    assert json.loads((out / "summary.json").read_text())["roster"]["missing"] == []


def test_is_a_handouts_folder_a_roster(tmp_path):
    (tmp_path / "handouts").mkdir()
    (tmp_path / "handouts" / "variants.csv").write_text("id,folder,variant\r\nana,ana,sigmoid\r\nben,ben,sin\r\n")
    assert load_roster(tmp_path / "handouts") == Roster(("ana", "ben"), str(tmp_path / "handouts" / "variants.csv"))


def test_is_an_unrostered_submission_never_graded_against_a_variant_nobody_was_handed(tmp_path):
    """With [variants], an id not on the roster has no variant anyone handed out: its row says so, ungraded,
    and the grader is never asked to grade it."""
    from autograder.config import from_mapping

    course = from_mapping({"hidden_seed": 42, "variants": {"points": 6}})
    log = tmp_path / "calls.log"
    entries = [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("ana", "zed")]
    (tmp_path / "roster.csv").write_text("id\nana\nbea\n")

    result = run(entries, tmp_path / "out", rubric=course, roster=load_roster(tmp_path / "roster.csv"))

    assert log.read_text().split() == ["ana"]
    zed = {r.student: r for r in result.rows}["zed"]
    assert zed.report.error.startswith("not graded: id zed is not on the roster (roster.csv)")
    rows = gradebook(tmp_path / "out")
    assert rows["zed"]["status"] == "unrostered" and rows["bea"]["status"] == "missing"
    assert rows["bea"]["variant"] == variant_of(course, "bea").label   # the variant the absent student was handed


def test_does_forensics_attribute_a_copy_of_an_absent_students_variant():
    from autograder.config import from_mapping
    from autograder.report.model import Report
    from autograder.variants.assign import variant_of
    from autograder.variants.forensics import flags, predicted

    course = from_mapping({"hidden_seed": 42, "variants": {"points": 6, "pool": ["sigmoid"]}})
    mine, theirs = variant_of(course, "ana"), variant_of(course, "bea")
    samples = ((theirs.op, *map(tuple, predicted(theirs.op, theirs.constant))),)
    copy = Report("ana", 0.0, 1.0, (), variant=mine, samples=samples)
    assert flags([copy]) == []                        # the class alone: bea handed nothing in
    (flag,) = flags([copy], [mine, theirs])          # the roster's variants, the absent student's too
    assert flag.student == "ana" and flag.sources == ("bea",)
