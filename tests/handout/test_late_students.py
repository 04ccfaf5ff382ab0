"""Does a roster's handout folder take late students without touching the others' handouts?"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from autograder.config import from_mapping
from autograder.handout.roster import write_handouts
from autograder.handout.write import HandoutError
from autograder.variants.assign import variant_of

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})


def files(root: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in root.rglob("*") if p.is_file()}


def test_are_late_students_added_and_the_others_left_as_they_were(tmp_path):
    roster, out = tmp_path / "roster.csv", tmp_path / "handouts"
    roster.write_text("id\nada_7\nbob_33\n")
    write_handouts(out, rubric=COURSE, roster=roster)
    before = files(out)
    roster.write_text("id\nada_7\nbob_33\ncy_40\n")

    written = write_handouts(out, rubric=COURSE, roster=roster)

    after = files(out)
    assert {k: v for k, v in after.items() if k.startswith(("ada_7/", "bob_33/"))} == \
        {k: v for k, v in before.items() if k.startswith(("ada_7/", "bob_33/"))}
    assert any(p.parent.name == "cy_40" or "cy_40" in p.parts for p in written)
    rows = list(csv.DictReader((out / "variants.csv").read_text().splitlines()))
    assert [r["id"] for r in rows] == ["ada_7", "bob_33", "cy_40"]
    assert rows[2]["variant"] == variant_of(COURSE, "cy_40").label


def test_is_a_folder_of_something_else_or_of_other_variants_refused_in_one_line(tmp_path):
    roster, out = tmp_path / "roster.csv", tmp_path / "handouts"
    roster.write_text("id\nada_7\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(HandoutError, match="not empty"):
        write_handouts(tmp_path / "other", rubric=COURSE, roster=roster)
    write_handouts(out, rubric=COURSE, roster=roster)
    other_secret = from_mapping({"hidden_seed": 1234567, "variants": {"points": 6, "secret": "another-secret"}})
    with pytest.raises(HandoutError, match="now draws"):
        write_handouts(out, rubric=other_secret, roster=roster)
