"""A class's grading holds briefs, not reports; a rerun costs what changed; merge copies the shards' pages.

(issue 32, items 1 and 2: the figures are benchmarks/bench_scale.py's; these pin the behaviour.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from autograder.batch import store as store_module
from autograder.batch.brief import brief_json, brief_from_json, brief_of
from autograder.batch.merge import merge_shards
from autograder.batch.run import grade_batch
from autograder.batch.shard import Shard
from autograder.batch.shard_run import grade_shard
from autograder.config import Rubric
from autograder.report.csv_report import render_gradebook
from autograder.report.model import CaseResult, Report, TaskResult
from autograder.report.summary import build_summary
from autograder.report.trouble import error_line
from batch_fakes import entry, fake_report, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)
NAMES = [f"s{i:03d}" for i in range(12)]


def class_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith(("gradebook.sqlite", ".autograder"))}


@pytest.fixture
def klass(tmp_path):
    plans = {s: {"fail": ("mul", "tanh") if i % 3 == 0 else ()} for i, s in enumerate(NAMES)}
    plans["s004"] = {"do": "raise"}
    return [entry(s, submission(tmp_path / "in", s, **p), late=s == "s005") for s, p in plans.items()]


@pytest.fixture
def reads(monkeypatch):
    """How many full reports the store reads (report_from_dict calls)."""
    count = [0]
    real = store_module.report_from_dict

    def counting(data):
        count[0] += 1
        return real(data)

    monkeypatch.setattr(store_module, "report_from_dict", counting)
    return count


def run(entries, out):
    return grade_batch(entries, out, rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2)


def test_does_a_brief_give_the_class_files_what_the_full_report_gives():
    timed_out = TaskResult("mul", "mul", 1.0, 5.0, (
        CaseResult("a", "passed", "public"), CaseResult("b", "timeout", "hidden", "slow"),
        CaseResult("c", "timeout", "public", "took 3 s"), CaseResult("d", "error", "public", "", counted=False),
        CaseResult("e", "timeout", "public", "another"), CaseResult("f", "error", "public", "ZeroDivisionError")))
    full = fake_report("ana", RUBRIC, fail=("tanh",))
    full = Report(full.submission, full.score, full.max_score, (timed_out, *full.tasks[1:]), notes=("sandbox: x", "y"))
    brief = brief_from_json(brief_json(full))
    assert brief == brief_of(full) and len(brief_json(full)) < 4000
    assert error_line(brief) == error_line(full)
    assert build_summary([brief]) == build_summary([full])
    assert [t.status for t in brief.tasks] == [t.status for t in full.tasks]
    assert [t.count("timeout") for t in brief.tasks] == [t.count("timeout") for t in full.tasks]


def test_does_a_batch_keep_briefs_and_write_the_files_of_full_reports(klass, tmp_path):
    result = run(klass, tmp_path / "out")
    assert all(r.brief for r in result.rows)
    assert all(len(r.report.tasks[0].cases) < 3 for r in result.rows if r.report.tasks)
    page = (tmp_path / "out" / "reports" / "s000.json").read_text()
    assert "mul-public" in page and "got: 1" in page  # the student's report: whole
    assert render_gradebook(result.rows).encode() == (tmp_path / "out" / "gradebook.csv").read_bytes()


def test_does_a_rerun_with_nothing_new_read_no_report_and_one_changed_student_read_only_theirs(klass, tmp_path, reads):
    out = tmp_path / "out"
    first = class_files(run(klass, out).out_dir)
    reads[0] = 0
    again = run(klass, out)
    assert reads[0] == 0 and again.graded == 1  # the crashed one is retried: its report comes from the worker
    assert class_files(out) == first
    plan = tmp_path / "in" / "s001" / "plan.json"
    plan.write_text(plan.read_text().replace('"fail": []', '"fail": ["exp"]'))
    changed = run(klass, out)
    assert changed.graded == 2 and reads[0] <= 2  # s001's old and new report: what regrade-changes.csv compares
    assert changed.changed == 1 and "s001" in (out / "regrade-changes.csv").read_text()
    assert class_files(out) != first and b"exp" in (out / "summary.json").read_bytes()


def test_does_the_merge_copy_the_shards_pages_rather_than_render_them(klass, tmp_path, monkeypatch):
    one = tmp_path / "one"
    run(klass, one)
    outs = []
    for i in (1, 2):
        outs.append(tmp_path / f"shard-{i}")
        grade_shard(klass, outs[-1], shard=Shard(i, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2)
    from autograder.report import html_report, json_text

    def never(*_, **__):
        raise AssertionError("rendered again")

    monkeypatch.setattr(html_report, "render_feedback", never)
    monkeypatch.setattr(json_text, "indented_json", never)
    merge_shards(outs, tmp_path / "merged", rubric=RUBRIC)
    assert class_files(tmp_path / "merged") == class_files(one)


def test_does_a_rerun_with_nothing_new_make_no_class_file_and_one_touched_make_it_again(klass, tmp_path, monkeypatch):
    out = tmp_path / "out"
    klass = [e for e in klass if e.student != "s004"]  # a crashed grading is retried by every run
    run(klass, out)
    first = class_files(out)
    from autograder.report import summary, summary_html

    def never(*_, **__):
        raise AssertionError("made again")

    with monkeypatch.context() as m:
        m.setattr(summary, "build_summary", never)
        m.setattr(summary_html, "render_summary_html", never)
        again = run(klass, out)
    assert again.graded == 0 and class_files(out) == first and again.written.summary["submissions"] == len(klass)
    (out / "summary.html").write_text("edited")
    run(klass, out)
    assert class_files(out) == first


def test_does_a_regrade_compare_each_student_with_the_row_it_replaced(klass, tmp_path):
    out = tmp_path / "out"
    klass = [e for e in klass if e.student != "s004"]
    run(klass, out)
    again = grade_batch(klass, out, rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2, regrade=True)
    assert again.graded == len(klass) and again.changed == 0
    assert f"{len(klass)} student(s) of the last class graded again; 0 score(s) changed." in \
        (out / "regrade-changes.md").read_text()
