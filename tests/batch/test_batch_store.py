"""Does the store key a grade by exactly what it depends on, and give back the report it was given?"""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.batch.keys import content_digest, grade_key, rubric_digest
from autograder.batch.store import BatchRow, Store, StoreError, report_from_dict
from autograder.config import Rubric, from_mapping
from autograder.report.json_report import report_dict
from autograder.scoring import crashed_report
from batch_fakes import fake_report, submission


def test_a_file_is_keyed_by_its_bytes(tmp_path):
    f = tmp_path / "alice.py"
    f.write_bytes(b"print('hi')\n")
    assert content_digest(f) == hashlib.sha256(b"print('hi')\n").hexdigest()


def test_a_folder_is_keyed_by_every_file_and_its_path(tmp_path):
    a = submission(tmp_path, "a")
    b = tmp_path / "b"
    shutil.copytree(a, b)
    assert content_digest(a) == content_digest(b)

    (b / "__pycache__").mkdir()
    (b / "__pycache__" / "x.pyc").write_bytes(b"junk")
    assert content_digest(a) == content_digest(b), "derived files are not the submission"

    (b / "micrograd" / "nn.py").write_text("")
    assert content_digest(a) != content_digest(b), "a new empty file counts"
    (b / "micrograd" / "nn.py").unlink()
    (b / "micrograd" / "engine.py").rename(b / "micrograd" / "engine2.py")
    assert content_digest(a) != content_digest(b), "a renamed file counts"


def test_an_unreadable_path_still_gets_a_key(tmp_path):
    assert len(content_digest(tmp_path / "gone")) == 64


def test_the_rubric_digest_follows_points_and_tolerances_not_where_it_was_read():
    base = Rubric()
    assert rubric_digest(base) == rubric_digest(replace(base, source="elsewhere.toml", hidden_seed=7))
    assert rubric_digest(base) != rubric_digest(from_mapping({"points": {**base.points, "mul": 6}}))
    assert rubric_digest(base) != rubric_digest(replace(base, abs_tol=1e-4))


def test_the_key_covers_seed_and_kit_version(tmp_path):
    sub = submission(tmp_path, "a")
    k1, k2 = grade_key(sub, Rubric(hidden_seed=1)), grade_key(sub, Rubric(hidden_seed=2))
    assert k1.content == k2.content and k1.hidden_seed != k2.hidden_seed
    assert k1.kit_version


@pytest.mark.parametrize("report", [
    fake_report("ana", Rubric(), fail=("mul", "train"), message="<b>ö</b>"),
    crashed_report("ben", "grading crashed: boom", Rubric()),
], ids=["graded", "crashed"])
def test_a_report_survives_the_round_trip_through_json(report):
    assert report_dict(report_from_dict(report_dict(report))) == report_dict(report)


def test_does_a_report_with_a_diagnosis_and_graphs_come_back_whole(tmp_path):
    """A resumed run renders feedback and the summary from stored reports: the likely mistake and the
    pictures must survive the store (they once came back empty)."""
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))
    import variants as corpus
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    folder = corpus.build(corpus.by_id()["backward-no-visited"], tmp_path / "v")
    report = grade_path(folder, rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=tmp_path / "g"))
    assert report.task("backward").diagnosis and any(c.graph for c in report.task("backward").cases)
    assert report_from_dict(json.loads(json.dumps(report_dict(report)))) == replace(report, duration=0.0)  # not stored


def test_put_then_get_gives_the_row_back_and_put_again_replaces_it(tmp_path):
    sub = submission(tmp_path, "a")
    key = grade_key(sub, Rubric())
    row = BatchRow("Zoë, \"Z\"", fake_report("Zoë", Rubric()), late=True, source="canvas", original="z.zip")
    with Store(tmp_path / "g.sqlite") as store:
        assert store.get(row.student, key) is None
        store.put(row, key)
        store.put(replace(row, final=False), key)
    with Store(tmp_path / "g.sqlite") as store:
        got = store.get(row.student, key)
        assert store.count() == 1
        assert store.get(row.student, replace(key, content="0" * 64)) is None
    assert got.final is False and got.late is True and got.source == "canvas"
    assert report_dict(got.report) == report_dict(row.report)


def test_a_file_that_is_not_a_gradebook_is_refused_with_one_line(tmp_path):
    bad = tmp_path / "gradebook.sqlite"
    bad.write_text("this is not sqlite, just text that is long enough to look like a header" * 3)
    with pytest.raises(StoreError, match="not a usable gradebook"):
        Store(bad)
