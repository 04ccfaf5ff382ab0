"""What a class's grading holds and what a rerun reads (issue 32, items 1 and 2): shared briefs, the files'
record kept in the store, submission digests remembered with the files' stat, briefs parsed only when read.

(The figures are benchmarks/bench_scale.py's; these pin the behaviour.)
"""
from __future__ import annotations

import os

import pytest

from autograder.batch import known_contents, row as row_module
from autograder.batch.brief import brief_of
from autograder.batch.keys import content_digest
from autograder.batch.known_contents import content_digests
from autograder.batch.run import grade_batch
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import entry, fake_report, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)


def run(entries, out):
    return grade_batch(entries, out, rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2)


@pytest.fixture
def klass(tmp_path):
    names = [f"s{i:03d}" for i in range(8)]
    plans = {s: {"fail": ("mul",) if i % 2 else ()} for i, s in enumerate(names)}
    plans["s003"] = {"do": "raise"}
    return [entry(s, submission(tmp_path / "in", s, **p)) for s, p in plans.items()]


def test_do_two_students_briefs_share_the_tasks_that_read_the_same():
    ana, ben = fake_report("ana", RUBRIC, fail=("tanh",)), fake_report("ben", RUBRIC, fail=("tanh",))
    a, b = brief_of(ana), brief_of(ben)
    assert a.submission == "ana" and b.submission == "ben"
    assert all(x is y for x, y in zip(a.tasks, b.tasks))  # one object a class, not one a student
    assert brief_of(a) is a


def test_does_a_batch_keep_one_copy_of_a_task_for_its_class(klass, tmp_path):
    rows = [r for r in run(klass, tmp_path / "out").rows if not r.ungradable]
    passed = [r.report.tasks[0] for r in rows]  # add: passed by all
    assert len(rows) == 7 and all(t is passed[0] for t in passed)


def test_does_a_batch_never_load_the_record_of_its_files_whole(klass, tmp_path, monkeypatch):
    out = tmp_path / "out"
    run(klass, out)
    with monkeypatch.context() as m:
        m.setattr(Store, "outputs", lambda self: pytest.fail("the whole record read"))
        run(klass, out)
        run([*klass[:-1], entry("s100", submission(tmp_path / "in", "s100"))], out)  # another class: s007 leaves
    assert not (out / "reports" / "s007.json").exists()
    with Store(out / "gradebook.sqlite") as store:
        record = store.outputs()
    assert "reports/s000.json" in record and not any("s007" in path for path in record)


def test_does_a_rerun_with_nothing_new_parse_no_brief_and_still_know_who_is_ungradable(klass, tmp_path, monkeypatch):
    out = tmp_path / "out"
    klass = [e for e in klass if e.student != "s003"]
    (tmp_path / "in" / "s005" / "micrograd" / "engine.py").unlink()  # graded: 0 points, yet no error
    first = run(klass, out)
    parsed = []
    real = row_module.brief_from_json
    monkeypatch.setattr(row_module, "brief_from_json", lambda text: parsed.append(text) or real(text))
    again = run(klass, out)
    assert again.graded == 0 and parsed == []
    assert [r.student for r in again.ungradable] == [r.student for r in first.ungradable]
    assert again.rows[0].report.submission == "s000" and len(parsed) == 1  # parsed when read


def test_does_a_rerun_read_only_the_submission_files_that_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(known_contents, "RACY_SECONDS", 0)
    read = []
    monkeypatch.setattr(known_contents, "content_digest", lambda path: read.append(path.name) or content_digest(path))
    paths = [tmp_path / f"s{i}.py" for i in range(3)]
    for path in paths:
        path.write_text(f"# {path.name}\n")
    with Store(tmp_path / "gradebook.sqlite") as store:
        first = content_digests(paths, store)
        read.clear()
        assert content_digests(paths, store) == first and read == []
        paths[1].write_text("# s1, with more\n")
        again = content_digests(paths, store)
    assert read == ["s1.py"] and again[1] == content_digest(paths[1]) != first[1] and again[0] == first[0]


def test_is_a_file_written_just_now_read_again_on_the_next_run(tmp_path, monkeypatch):
    """A write within the same clock tick as the last would leave the stat as it was: such a file is not
    remembered until it has been still for RACY_SECONDS."""
    read = []
    monkeypatch.setattr(known_contents, "content_digest", lambda path: read.append(path.name) or content_digest(path))
    path = tmp_path / "s0.py"
    path.write_text("# s0\n")
    with Store(tmp_path / "gradebook.sqlite") as store:
        content_digests([path], store)
        content_digests([path], store)
    assert read == ["s0.py", "s0.py"]


def test_is_a_folder_submission_read_on_every_run(tmp_path, monkeypatch):
    """A folder's stat does not change when a file inside it does: it is never taken from the store."""
    monkeypatch.setattr(known_contents, "RACY_SECONDS", 0)
    folder = tmp_path / "ana"
    (folder / "micrograd").mkdir(parents=True)
    (folder / "micrograd" / "engine.py").write_text("x = 1\n")
    with Store(tmp_path / "gradebook.sqlite") as store:
        first = content_digests([folder], store)
        (folder / "micrograd" / "engine.py").write_text("x = 2\n")
        os.utime(folder, ns=(0, 0))
        assert content_digests([folder], store) != first
