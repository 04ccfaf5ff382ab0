"""Does a batch give every submission exactly one row, resume where it stopped, and
write the same files however many workers it uses?"""
from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.batch.pool import WORKER_DIED
from autograder.batch.run import BatchInputError, grade_batch
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import calls, entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)


def run(entries, out, **kw):
    kw.setdefault("workers", 2)
    return grade_batch(entries, out, rubric=kw.pop("rubric", RUBRIC), grade_one=grade_fake, progress=False, **kw)


def gradebook(out: Path) -> dict[str, dict]:
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


@pytest.fixture
def log(tmp_path) -> Path:
    return tmp_path / "calls.log"


@pytest.mark.parametrize("workers", [1, 2])
def test_every_entry_gets_a_row_even_when_grading_raises_or_kills_its_worker(tmp_path, log, workers):
    plans = {"ana": "ok", "ben": "raise", "cai": "exit", "dee": "ok", "eve": "not_a_report", "fay": "ok"}
    entries = [entry(s, submission(tmp_path / "in", s, do=do, log=log)) for s, do in plans.items()]
    result = run(entries, tmp_path / "out", workers=workers)

    assert [r.student for r in result.rows] == list(plans)
    book = gradebook(tmp_path / "out")
    assert list(book) == list(plans)
    assert {s for s, row in book.items() if row["status"] == "graded"} == {"ana", "dee", "fay"}
    assert book["ben"]["error"] == "grading crashed: RuntimeError: boom"
    assert book["cai"]["error"] == WORKER_DIED
    assert "not a Report" in book["eve"]["error"]
    assert book["cai"]["score"] == "0" and float(book["cai"]["max_score"]) == RUBRIC.max_score
    assert set(calls(log)) == set(plans)


def test_resuming_grades_only_what_is_not_stored_yet(tmp_path, log):
    first = [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("ana", "ben", "cai")]
    run(first, tmp_path / "out")
    more = first + [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("dee", "eve")]
    log.unlink()

    result = run(more, tmp_path / "out")

    assert sorted(calls(log)) == ["dee", "eve"]
    assert (result.graded, result.reused) == (2, 3)
    assert list(gradebook(tmp_path / "out")) == ["ana", "ben", "cai", "dee", "eve"]


def test_a_submission_whose_grading_crashed_is_retried_on_the_next_run(tmp_path, log):
    entries = [entry("ana", submission(tmp_path / "in", "ana", log=log)),
               entry("ben", submission(tmp_path / "in", "ben", do="raise", log=log))]
    first = run(entries, tmp_path / "out")
    assert [r.student for r in first.retryable] == ["ben"]
    log.unlink()

    run(entries, tmp_path / "out")

    assert calls(log) == ["ben"]


def test_regrade_grades_everything_again(tmp_path, log):
    entries = [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("ana", "ben")]
    run(entries, tmp_path / "out")
    log.unlink()

    result = run(entries, tmp_path / "out", regrade=True)

    assert sorted(calls(log)) == ["ana", "ben"] and result.reused == 0
    with Store(tmp_path / "out" / "gradebook.sqlite") as store:
        assert store.count() == 2  # replaced, not added


def test_a_changed_submission_or_rubric_is_graded_again(tmp_path, log):
    paths = {s: submission(tmp_path / "in", s, log=log) for s in ("ana", "ben")}
    entries = [entry(s, p) for s, p in paths.items()]
    run(entries, tmp_path / "out")
    log.unlink()
    (paths["ben"] / "micrograd" / "engine.py").write_text("# ben, second try\n")
    run(entries, tmp_path / "out")
    assert calls(log) == ["ben"]

    log.unlink()
    run(entries, tmp_path / "out", rubric=replace(RUBRIC, rel_tol=1e-3))
    assert sorted(calls(log)) == ["ana", "ben"]


def test_two_workers_write_the_same_files_as_one(tmp_path):
    entries = [entry(f"s{i:02d}", submission(tmp_path / "in", f"s{i:02d}", fail=("mul",) * (i % 2),
                                             do="raise" if i == 5 else "ok"))
               for i in range(8)]
    run(entries, tmp_path / "one", workers=1)
    run(entries, tmp_path / "two", workers=2)

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
                if p.is_file() and not p.name.startswith(("gradebook.sqlite", ".autograder"))}

    one, two = files(tmp_path / "one"), files(tmp_path / "two")
    assert len(one) == 2 * 8 + 5  # reports, feedback, gradebook.csv, summary.json/.md/.html, histogram
    assert one == two


def test_outputs_are_complete_and_no_temporary_file_is_left(tmp_path):
    entries = [entry(s, submission(tmp_path / "in", s)) for s in ("ana", "ben")]
    run(entries, tmp_path / "out")
    out = tmp_path / "out"
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    assert sorted(p.name for p in (out / "reports").iterdir()) == ["ana.json", "ben.json"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["ana.html", "ben.html"]
    assert json.loads((out / "reports" / "ana.json").read_text())["submission"] == "ana"
    assert json.loads((out / "summary.json").read_text())["submissions"] == 2


def test_ctrl_c_keeps_what_was_graded_and_the_same_command_resumes(tmp_path, log, capsys, ctrl_c_at_a_terminal):
    entries = [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("ana", "ben")]
    entries.append(entry("cai", submission(tmp_path / "in", "cai", log=log, do="sigint_once",
                                           flag=str(tmp_path / "pressed"))))
    entries += [entry(s, submission(tmp_path / "in", s, log=log)) for s in ("dee", "eve")]
    with pytest.raises(KeyboardInterrupt):
        run(entries, tmp_path / "out", workers=1)
    assert "run the same command again" in capsys.readouterr().err
    assert calls(log) == ["ana", "ben", "cai"]
    assert not (tmp_path / "out" / "gradebook.csv").exists()
    log.unlink()

    result = run(entries, tmp_path / "out", workers=1)

    assert calls(log) == ["cai", "dee", "eve"]
    assert len(result.rows) == 5 and not result.ungradable


def test_an_out_dir_that_is_a_file_or_a_repeated_student_id_is_refused(tmp_path):
    sub = submission(tmp_path / "in", "ana")
    (tmp_path / "file").write_text("")
    with pytest.raises(BatchInputError, match="is a file"):
        run([entry("ana", sub)], tmp_path / "file")
    with pytest.raises(BatchInputError, match="ana"):
        run([entry("ana", sub), entry("ana", sub)], tmp_path / "out")
