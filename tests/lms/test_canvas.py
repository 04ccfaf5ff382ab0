"""Does `autograder lms canvas` give back the instructor's Canvas export with only this assignment's cells
filled, matched by Canvas user id, and refuse in one line what it can't use?

The export's shape follows canvas-lms lib/gradebook_exporter.rb: header "Student", "ID", "SIS User ID",
"SIS Login ID", "Section", custom columns, "<title> (<assignment id>)" per assignment, read-only totals
("Current Score", ...); an optional row of "Manual Posting" for manually posted assignments; a row whose
first cell is "    Points Possible"; "EX" for an excused student; UTF-8 with a BOM when asked
(`include_bom`). The user id is the one in the download's names (lib/content_zipper.rb).
"""
from __future__ import annotations

import csv
import io

import pytest

from autograder.cli import main
from lms_class import canvas_download, graded_class

HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Notes, \"private\"", "Warm-up (77)",
          "Backprop (123)", "Current Score", "Final Score"]
ROWS = [
    HEADER,
    ["", "", "", "", "", "", "Manual Posting", "", "", ""],
    ["    Points Possible", "", "", "", "", "(read only)", "5.00", "10.00", "(read only)", "(read only)"],
    ["O'Brien, Mary", "1001", "s1", "mobrien", "Sec 1", "=cmd, \"quoted\"", "5", "", "50", "50"],
    ["Lee, Bob", "1002", "s2", "blee", "Sec 1", "", "4", "", "40", "40"],
    ["Müller, Zoë", "1003", "s3", "zmuller", "Sec 2", "", "", "", "0", "0"],
    ["Absent, Nora", "1005", "s5", "nabsent", "Sec 2", "", "3", "7", "30", "30"],
    ["Excused, Ed", "1006", "s6", "eexcused", "Sec 2", "", "", "EX", "", ""],
]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return graded_class(tmp_path_factory.mktemp("canvas"), canvas_download)


def export(path, rows=ROWS, *, bom=True, newline="\n"):
    text = io.StringIO()
    csv.writer(text, lineterminator=newline).writerows(rows)
    path.write_bytes((("\ufeff" if bom else "") + text.getvalue()).encode("utf-8"))
    return path


def read(path):
    raw = path.read_bytes()
    return raw.startswith(b"\xef\xbb\xbf"), list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_is_only_the_assignments_column_filled_and_every_other_cell_kept(out, tmp_path, capsys):
    code = main(["lms", "canvas", str(out), "--gradebook", str(export(tmp_path / "g.csv")),
                 "--assignment", "Backprop"])
    said = capsys.readouterr().out
    bom, rows = read(out / "canvas-import.csv")
    assert bom and len(rows) == len(ROWS) and all(len(r) == len(HEADER) for r in rows)
    col = HEADER.index("Backprop (123)")
    for before, after in zip(ROWS, rows):
        assert before[:col] + before[col + 1:] == after[:col] + after[col + 1:]  # quoting, non-ASCII, all kept
    grades = {r[1]: r[col] for r in rows[3:]}
    assert grades["1001"] == "10"                      # 100/100 on a 10-point column
    assert 0 < float(grades["1002"]) < 10              # the mul bug costs mul's share only
    assert float(grades["1003"]) == 0                  # stubs
    assert grades["1005"] == "7" and grades["1006"] == "EX"  # no submission: as it was; excused: kept
    assert code == 1 and "ghoststudent_1004" in said and "not in the export" in said  # reported, not dropped
    assert "late (flagged, not penalised" in said and "leebob_1002" in said


def test_does_the_export_round_trip_byte_for_byte_without_grades(tmp_path):
    """Nothing to fill (no graded student is from Canvas): only a refusal, and the reader/writer is lossless."""
    from autograder.lms.table import read_table

    path = export(tmp_path / "g.csv", newline="\r\n")
    assert read_table(path, "x").render() == path.read_bytes()
    plain = export(tmp_path / "p.csv", bom=False)
    assert read_table(plain, "x").render() == plain.read_bytes()


def test_are_percentages_and_a_late_penalty_explicit(out, tmp_path):
    g = export(tmp_path / "g.csv")
    main(["lms", "canvas", str(out), "--gradebook", str(g), "--assignment", "123", "--percent"])
    _, rows = read(out / "canvas-import.csv")
    col = HEADER.index("Backprop (123)")
    assert {r[1]: r[col] for r in rows[3:]}["1001"] == "100%"
    plain = {r[1]: float(r[col].rstrip("%")) for r in rows[3:5]}
    main(["lms", "canvas", str(out), "--gradebook", str(g), "--assignment", "123", "--percent", "--late-penalty", "10"])
    _, rows = read(out / "canvas-import.csv")
    late = {r[1]: float(r[col].rstrip("%")) for r in rows[3:5]}
    assert late["1001"] == plain["1001"] and late["1002"] == pytest.approx(round(plain["1002"] * 0.9, 2), abs=0.01)


@pytest.mark.parametrize("rows, assignment, says", [
    (ROWS, None, "has 2 assignments: say which with --assignment"),
    (ROWS, "Homework 9", "no assignment 'Homework 9'; its assignments are: Warm-up (77); Backprop (123)"),
    ([r[:1] + r[2:] for r in ROWS], "Backprop", "no \"Student\" and \"ID\" columns"),
    ([r[:1] + r[1:6] + r[8:] for r in ROWS], None, "no assignment column"),
    ([HEADER, ROWS[2], ["Other, Person", "9999", "", "", "", "", "", "", "", ""]], "Backprop",
     "none of the 4 graded students is in it (an export of another course?)"),
])
def test_is_an_export_it_cant_use_refused_in_one_line_and_nothing_written(out, tmp_path, capsys, rows, assignment, says):
    (out / "canvas-import.csv").unlink(missing_ok=True)
    argv = ["lms", "canvas", str(out), "--gradebook", str(export(tmp_path / "g.csv", rows))]
    assert main(argv + (["--assignment", assignment] if assignment else [])) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not (out / "canvas-import.csv").exists()


@pytest.mark.parametrize("content, says", [
    (b"Student,ID,Backprop (123)\n\"unclosed,1,2\n", "not a valid CSV file"),
    (b"Student,ID,Backprop (123)\nA,1\n", "row 2 has 2 cells, the header 3"),
    (b"Student,ID,Backprop (123)\n\xff\xfeA,1,2\n", "not UTF-8 text"),
    (b"", "empty"),
])
def test_is_a_corrupt_file_refused_in_one_line(out, tmp_path, capsys, content, says):
    (tmp_path / "g.csv").write_bytes(content)
    assert main(["lms", "canvas", str(out), "--gradebook", str(tmp_path / "g.csv")]) == 2
    assert says in capsys.readouterr().err


def test_is_a_folder_that_is_not_a_grade_output_refused(tmp_path, capsys):
    assert main(["lms", "canvas", str(tmp_path), "--gradebook", str(export(tmp_path / "g.csv"))]) == 2
    assert "no gradebook.csv here" in capsys.readouterr().err


def test_does_changed_fill_only_the_scores_the_last_regrade_changed(out, tmp_path, capsys):
    """After a regrade (OUT/regrade-changes.csv names who moved), --changed fills their cells alone: every
    other one is left as the export has it, so an import changes nothing else."""
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    bob = next(p.stem for p in (copy / "reports").iterdir() if p.stem.endswith("_1002"))
    (copy / "regrade-changes.csv").write_text(f"student,old_score,new_score,max_score,tasks,why\r\n{bob},1,2,3,,x\r\n")
    code = main(["lms", "canvas", str(copy), "--gradebook", str(export(tmp_path / "g.csv")),
                 "--assignment", "Backprop", "--changed"])
    said = capsys.readouterr().out
    _, rows = read(copy / "canvas-import.csv")
    col = HEADER.index("Backprop (123)")
    filled = {r[1]: r[col] for r in rows[3:]}
    assert filled["1002"] != "" and filled["1001"] == "" and filled["1003"] == "" and filled["1005"] == "7"
    assert "only the 1 score(s) the last regrade changed" in said and code == 0
    (copy / "regrade-changes.csv").unlink()
    assert main(["lms", "canvas", str(copy), "--gradebook", str(tmp_path / "g.csv"), "--changed"]) == 2
