"""Does the kit read every file name Canvas can write, and never make a student out of one it can't?

Canvas names each file of a download `<name>[_LATE]_<userid>_<attachmentid>_<file name>`;
<name> is the sortable name lower-cased with every non-word character removed
(canvas-lms, lib/content_zipper.rb), so it may hold digits, underscores and non-ASCII
letters; the uploaded file's own name may hold underscores and hyphens.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from autograder.batch.discover import discover
from autograder.batch.layouts.canvas import parse


@pytest.mark.parametrize("name, student, user, late, original", [
    ("alicesmith_1001_5001_engine.py", "alicesmith_1001", 1001, False, "engine.py"),
    ("obrien_mary_1010_5010_engine.py", "obrien_mary_1010", 1010, False, "engine.py"),
    ("müllerjan_LATE_1011_5011_nn.py", "müllerjan_1011", 1011, True, "nn.py"),
    ("smith2_john_1012_5012_my_engine-v2.py", "smith2_john_1012", 1012, False, "my_engine-v2.py"),
    ("李华_1013_5013_train.py", "李华_1013", 1013, False, "train.py"),
    ("ng_LATE_1014_5014_hw_3_final.zip", "ng_1014", 1014, True, "hw_3_final.zip"),
])
def test_is_every_canvas_name_parsed(tmp_path, name, student, user, late, original):
    path = tmp_path / name
    path.write_text("x = 1\n")
    got = parse(path)
    assert (got.student, got.user_id, got.late, got.name) == (student, user, late, original)


def _canvas(root: Path, names: list[str]) -> Path:
    root.mkdir()
    for n in names:
        (root / n).write_text("VALUE = 1\n")
    return root


def test_are_a_students_files_grouped_by_user_id_with_the_late_flag(tmp_path):
    folder = _canvas(tmp_path / "dl", ["obrien_mary_LATE_1010_5010_engine.py", "obrien_mary_LATE_1010_5011_nn.py",
                                       "obrien_mary_LATE_1010_5012_train.py", "li_wei_1020_5020_engine.py"])
    d = discover([folder], tmp_path / "work")
    got = {e.student: e for e in d.entries}
    assert sorted(got) == ["li_wei_1020", "obrien_mary_1010"]
    mary = got["obrien_mary_1010"]
    assert mary.late and sorted(p.name for p in mary.path.iterdir()) == ["engine.py", "nn.py", "train.py"]
    assert not d.problems


def test_is_a_file_that_almost_fits_reported_not_graded_as_students(tmp_path):
    """A renamed obrien-smith_LATE_1010_5010_engine.py was once graded as three students (39.23, 0, 0)."""
    folder = _canvas(tmp_path / "dl", ["obrien-smith_LATE_1010_5010_engine.py", "obrien-smith_LATE_1010_5011_nn.py",
                                       "li_wei_1020_5020_engine.py", "ann_1030_5030_engine.py",
                                       "bo_1040_5040_engine.py"])
    d = discover([folder], tmp_path / "work")
    assert sorted(e.student for e in d.entries) == ["ann_1030", "bo_1040", "li_wei_1020"]
    lost = [p for p in d.problems if "obrien-smith" in p]
    assert len(lost) == 2 and all("not graded" in p for p in lost)
