"""Does a rerun with nothing new leave the folder's last class (regrade.py) as it is, rather than write the whole
class again, and write it whenever anything it holds would differ? (issue 32, item 2)"""
from __future__ import annotations

import json

import pytest

from autograder.batch.regrade import LastClass
from autograder.batch.run import STORE_NAME, grade_batch
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)
NAMES = [f"s{i:03d}" for i in range(6)]


@pytest.fixture
def klass(tmp_path):
    return [entry(s, submission(tmp_path / "in", s, fail=("mul",) if i % 2 else ())) for i, s in enumerate(NAMES)]


@pytest.fixture
def writes(monkeypatch):
    """How often the last class was written (Store.set_last_class calls)."""
    seen = []
    real = Store.set_last_class

    def counted(self, rows, meta):
        seen.append(1)
        return real(self, rows, meta)

    monkeypatch.setattr(Store, "set_last_class", counted)
    return seen


def run(entries, out, rubric=RUBRIC):
    return grade_batch(entries, out, rubric=rubric, grade_one=grade_fake, progress=False, workers=2)


def last_class(out):
    with Store(out / STORE_NAME) as store:
        return LastClass.read(store)


def test_is_the_last_class_of_a_rerun_with_nothing_new_left_as_it_is(klass, tmp_path, writes):
    run(klass, tmp_path / "out")
    before = last_class(tmp_path / "out")
    run(klass, tmp_path / "out")
    assert writes == [1] and last_class(tmp_path / "out") == before


def test_is_it_written_again_when_a_source_a_key_the_order_or_the_rubric_differs(klass, tmp_path, writes):
    out = tmp_path / "out"
    run(klass, out)
    with Store(out / STORE_NAME) as store:  # as if a row were stored again under its key from another layout
        store._db.execute("UPDATE last_class SET source = 'canvas' WHERE student = 's001'")
        store._db.commit()
    run(klass, out)
    assert len(writes) == 2 and last_class(out).sources["s001"] == "folder"
    run(list(reversed(klass)), out)  # the same students, another order
    assert len(writes) == 3 and last_class(out).students == tuple(reversed(NAMES))
    (tmp_path / "in" / "s002" / "micrograd" / "engine.py").write_text("# s002, again\n")
    run(list(reversed(klass)), out)
    assert len(writes) == 4
    run(list(reversed(klass)), out, Rubric(hidden_seed=42, rel_tol=1e-3))
    assert len(writes) == 5 and json.dumps(last_class(out).rubric["rel_tol"]) == "0.001"


def test_does_a_rerun_after_one_new_submission_read_only_that_row_for_what_the_regrade_changed(klass, tmp_path,
                                                                                                 monkeypatch):
    """regrade-changes.csv names whose score moved: the students graded again are told from the keys, and only their
    rows read (a rerun of 20,000 walked the whole class for one)."""
    from autograder.batch import regrade_changes

    out = tmp_path / "out"
    run(klass, out)
    (tmp_path / "in" / "s002" / "plan.json").write_text(json.dumps({"do": "ok", "fail": ["mul"], "log": None}))
    (tmp_path / "in" / "s002" / "micrograd" / "engine.py").write_text("# s002, again\n")
    walked = []
    real = regrade_changes.changes

    def changes(old_rows, new_rows, *rest):
        new_rows = list(new_rows)
        walked.append([r.student for r in new_rows])
        return real(old_rows, new_rows, *rest)

    monkeypatch.setattr(regrade_changes, "changes", changes)
    joined, real_joined = [], Store._joined

    def spy(self, wanted, where):
        wanted = list(wanted)
        joined.append(len(wanted))
        return real_joined(self, wanted, where)

    monkeypatch.setattr(Store, "_joined", spy)
    monkeypatch.setattr(regrade_changes, "write_changes", lambda *a: joined.append("written"))
    result = run(klass, out)
    assert result.changed == 1 and walked == [["s002"]]
    assert joined[joined.index("written") - 1] == 1  # the walk before it: that one row's
