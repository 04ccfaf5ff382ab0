"""Can a student's display name or file name make the kit grade them as another student, merge two students
into one row, or send one student's grade into another's cell?

Issue 28, class 3. Canvas names a download's files `<name>[_LATE]_<userid>_<fileid>_<file>`, and both ends
are the student's: Eve (user 123) named herself "Eve_777_1" and uploaded engine.py, so her file was
`eve_777_1_123_4999_engine.py`; the kit read it as user 777, merged it with user 777's own file into one
row that scored 0, gave Eve no row, and `lms canvas` wrote the 0 into user 777's cell. A name long enough
to be cut at the id's length limit left digits of the name at its end (`..._777`), read as a user id too;
Moodle's `<Full Name>_<id>_assignsubmission_file_` the same way.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.lms.graded import read_graded
from autograder.paths import KIT_ROOT

SOLUTIONS = KIT_ROOT / "solutions" / "micrograd"
EXERCISES = KIT_ROOT / "exercises" / "micrograd"
EVE = "eve_777_1_123_4999_engine.py"
LONG_CANVAS = "a" * 96 + "_777_x_1003_5003_micrograd.py"       # cut at 100 characters: "aaa..._777"
LONG_MOODLE = "A" * 97 + "_41 zz_45_assignsubmission_file_"    # cut at 100 characters: "AAA..._41"


def one_file(folder: Path) -> str:
    nn = (folder / "nn.py").read_text().replace("from micrograd.engine import Value\n", "")
    train = "\n".join(l for l in (folder / "train.py").read_text().splitlines() if not l.startswith("from micrograd"))
    return "\n\n".join([(folder / "engine.py").read_text(), nn, train]) + "\n"


def _grade(download: Path, out: Path) -> dict:
    assert main(["grade", str(download), "--out", str(out), "--workers", "2"]) in (0, 1)
    return {g.student: g for g in read_graded(out)}


@pytest.fixture(scope="module")
def canvas(tmp_path_factory):
    root = tmp_path_factory.mktemp("canvas-ids")
    dl = root / "download"
    dl.mkdir()
    (dl / "smithjohn_777_5000_micrograd.py").write_text(one_file(SOLUTIONS))
    (dl / EVE).write_text(one_file(EXERCISES))
    (dl / "leebob_1002_5002_my_engine_2.py").write_text(one_file(SOLUTIONS))   # honest: _<digits> in its name
    (dl / LONG_CANVAS).write_text(one_file(EXERCISES))
    return root, _grade(dl, root / "out")


def test_is_a_display_name_holding_another_users_id_never_merged_into_their_row(canvas, capfd):
    root, rows = canvas
    john = rows["smithjohn_777"]
    assert john.score == john.max_score > 0, "user 777's row holds user 777's file alone"
    eve = [g for g in rows.values() if "eve" in g.student]
    assert len(eve) == 1 and eve[0].student.endswith("_ambiguous") and eve[0].lms_id("canvas") is None, rows
    assert rows["leebob_1002"].score == rows["leebob_1002"].max_score
    long = [g for g in rows.values() if g.student.startswith("aaaa")]
    assert len(long) == 1 and long[0].lms_id("canvas") == 1003, long


def test_does_lms_canvas_write_each_grade_into_its_own_students_cell_only(canvas, tmp_path, capsys):
    root, rows = canvas
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Backprop (9)"]
    people = [("Smith, John", "777"), ("Eve", "123"), ("One, Ann", "1"), ("Lee, Bob", "1002"), ("Aaa", "1003")]
    table = [header, ["    Points Possible", "", "", "", "", "100.00"]] + [[n, i, "", "", "", ""] for n, i in people]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(table)
    (tmp_path / "g.csv").write_text(text.getvalue(), encoding="utf-8")
    assert main(["lms", "canvas", str(root / "out"), "--gradebook", str(tmp_path / "g.csv")]) == 1  # one not written
    said = capsys.readouterr().out
    cells = {r[1]: r[5] for r in csv.reader(io.StringIO((root / "out" / "canvas-import.csv").read_text("utf-8-sig")))}
    assert float(cells["777"]) == 100.0 and float(cells["1002"]) == 100.0, cells
    assert cells["123"] == "" and cells["1"] == "", "Eve's file reads two ways: her grade goes into no cell"
    assert float(cells["1003"]) < 100.0
    assert "eve_777_1_123_ambiguous: its Canvas file name reads as more than one user" in said, said


def test_does_the_batch_say_how_an_ambiguous_canvas_name_reads(tmp_path, capfd):
    dl = tmp_path / "dl"
    dl.mkdir()
    for name in (EVE, "eve_777_1_123_5000_nn.py", "eve_777_1_123_5001_train.py", "smithjohn_777_5002_engine.py",
                 "smithjohn_777_5003_nn.py"):
        (dl / name).write_text("VALUE = 1\n")
    from autograder.batch.discover import discover

    found = discover([dl], tmp_path / "work")
    entries = {e.student: e for e in found.entries}
    assert sorted(entries) == ["eve_777_1_123_ambiguous", "smithjohn_777"]
    assert sorted(p.name for p in entries["eve_777_1_123_ambiguous"].path.iterdir()) == ["engine.py", "nn.py", "train.py"]
    assert sorted(p.name for p in entries["smithjohn_777"].path.iterdir()) == ["engine.py", "nn.py"]
    said = [p for p in found.problems if EVE in p]
    assert len(said) == 1 and "Canvas user 1 or 123" in said[0], found.problems   # 777 is John's alone


def test_is_a_long_moodle_name_cut_before_its_participant_id(tmp_path):
    dl = tmp_path / "download"
    for folder, text in (("Ada Lovelace_41_assignsubmission_file_", one_file(SOLUTIONS)),
                         (LONG_MOODLE, one_file(EXERCISES))):
        (dl / folder).mkdir(parents=True)
        (dl / folder / "micrograd.py").write_text(text)
    rows = _grade(dl, tmp_path / "out")
    assert sorted(g.lms_id("moodle") for g in rows.values()) == [41, 45], rows


def test_is_a_user_id_two_rows_claim_written_for_neither(tmp_path, capsys):
    """However two rows came to claim one LMS id (two downloads merged by hand, a kit of before), neither grade
    goes into that student's cell: one of them would be another student's."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.csv").write_text(
        "student,score,max_score,status,error,late,source\r\n"
        "smithjohn_777,100,100,graded,,no,canvas\r\n"
        "eve_777,0,100,graded,,no,canvas\r\n"
        "leebob_1002,90,100,graded,,no,canvas\r\n", encoding="utf-8")
    table = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Backprop (9)"],
             ["    Points Possible", "", "", "", "", "100.00"], ["Smith, John", "777", "", "", "", ""],
             ["Lee, Bob", "1002", "", "", "", ""]]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(table)
    (tmp_path / "g.csv").write_text(text.getvalue(), encoding="utf-8")
    assert main(["lms", "canvas", str(out), "--gradebook", str(tmp_path / "g.csv")]) == 1
    cells = {r[1]: r[5] for r in csv.reader(io.StringIO((out / "canvas-import.csv").read_text("utf-8-sig")))}
    assert cells["777"] == "" and float(cells["1002"]) == 90.0, cells
    assert "another row claims Canvas user 777 too" in capsys.readouterr().out
