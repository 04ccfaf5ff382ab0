"""Does `autograder lms moodle` fill Moodle's offline grading worksheet and write a feedback zip that Moodle's
"Upload multiple feedback files in a zip" takes, matched by participant number?

Facts from Moodle's source: the worksheet's columns are found by name ("Identifier", "Grade",
"Last modified (grade)" required; "Feedback comments" for the comments plugin), and a row's student is
the number after "Participant " (mod/assign/feedback/offline/importgradeslib.php); the download names
folders `<Full Name>_<N>_assignsubmission_file_`; the feedback zip importer splits each path part at
"_" (at most 5 parts) and takes the participant from the second part and the plugin from the third and
fourth (mod/assign/feedback/file/importziplib.php).
"""
from __future__ import annotations

import csv
import io
import zipfile

import pytest

from autograder.cli import main
from lms_class import graded_class, moodle_download

HEADER = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade", "Grade can be changed",
          "Last modified (submission)", "Last modified (grade)", "Feedback comments"]
ROWS = [
    HEADER,
    ["Participant 41", "Ada Lovelace", "ada@example.org", "Submitted for grading", "", "10.00", "Yes",
     "Monday, 3 March 2025, 10:00 AM", "-", ""],
    ["Participant 42", "Alan Turing", "alan@example.org", "Submitted for grading", "", "10.00", "Yes",
     "Monday, 3 March 2025, 11:00 AM", "-", ""],
    ["Participant 43", "Grace Hopper", "grace@example.org", "Submitted for grading", "", "10.00", "No",
     "Monday, 3 March 2025, 11:30 AM", "-", ""],
    ["Participant 44", "Émilie du Châtelet", "emilie@example.org", "No submission", "", "10.00", "Yes", "-", "-", ""],
]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return graded_class(tmp_path_factory.mktemp("moodle"), moodle_download)


def worksheet(path, rows=ROWS):
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    path.write_text(text.getvalue(), encoding="utf-8")
    return path


def test_are_grades_and_comments_filled_by_participant(out, tmp_path, capsys):
    assert main(["lms", "moodle", str(out), "--worksheet", str(worksheet(tmp_path / "w.csv"))]) == 0
    rows = list(csv.reader(io.StringIO((out / "moodle-grades.csv").read_text(encoding="utf-8"), newline="")))
    assert rows[0] == HEADER and len(rows) == len(ROWS)
    by_id = {r[0]: r for r in rows[1:]}
    grade, comments = HEADER.index("Grade"), HEADER.index("Feedback comments")
    assert by_id["Participant 41"][grade] == "10.00"
    assert 0 < float(by_id["Participant 42"][grade]) < 10 and "mul" in by_id["Participant 42"][comments]
    assert by_id["Participant 43"][grade] == ""        # Moodle says it can't be changed: left, and said
    assert by_id["Participant 44"] == ROWS[4]          # no submission: untouched
    assert "Grace_Hopper_43: Moodle says its grade can't be changed" in capsys.readouterr().out
    for before, after in zip(ROWS[1:], rows[1:]):
        assert [c for i, c in enumerate(before) if i not in (grade, comments)] == \
               [c for i, c in enumerate(after) if i not in (grade, comments)]


def test_is_the_feedback_zip_laid_out_as_moodles_importer_reads_it(out, tmp_path):
    main(["lms", "moodle", str(out), "--worksheet", str(worksheet(tmp_path / "w.csv"))])
    with zipfile.ZipFile(out / "moodle-feedback.zip") as zf:
        names = sorted(zf.namelist())
        page = zf.read(names[0]).decode("utf-8")
    assert names == ["Ada Lovelace_41_assignfeedback_file_/feedback.html",
                     "Alan Turing_42_assignfeedback_file_/feedback.html"]
    for name in names:  # importziplib.php: explode('_', part, 5) -> participant, plugin type, plugin name
        parts = name.split("/")[0].split("_", 4)
        assert parts[1].isdigit() and parts[2:4] == ["assignfeedback", "file"]
    assert "<html" in page.lower()


@pytest.mark.parametrize("rows, says", [
    ([[c for c in r if c != r[HEADER.index("Identifier")]] for r in ROWS], "no 'Identifier' column"),
    ([r[:4] + r[5:] for r in ROWS], "no 'Grade' column"),
    ([HEADER, ["Participant 99", "X", "", "", "", "10.00", "Yes", "-", "-", ""]],
     "none of the 3 graded students is in it"),
])
def test_is_a_worksheet_it_cant_use_refused_and_nothing_written(out, tmp_path, capsys, rows, says):
    for name in ("moodle-grades.csv", "moodle-feedback.zip"):
        (out / name).unlink(missing_ok=True)
    assert main(["lms", "moodle", str(out), "--worksheet", str(worksheet(tmp_path / "w.csv", rows))]) == 2
    assert says in capsys.readouterr().err
    assert not (out / "moodle-grades.csv").exists() and not (out / "moodle-feedback.zip").exists()


def test_are_grades_without_a_comments_column_still_written(out, tmp_path, capsys):
    rows = [r[:-1] for r in ROWS]
    assert main(["lms", "moodle", str(out), "--worksheet", str(worksheet(tmp_path / "w.csv", rows))]) == 0
    assert "no 'Feedback comments' column" in capsys.readouterr().out


def test_is_a_bad_late_penalty_one_line(out, tmp_path, capsys):
    assert main(["lms", "moodle", str(out), "--worksheet", str(worksheet(tmp_path / "w.csv")),
                 "--late-penalty", "150"]) == 2
    assert "between 0 and 100" in capsys.readouterr().err
