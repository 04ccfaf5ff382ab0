"""Does every student id the kit wrote into gradebook.csv come back unchanged for the LMS commands, spreadsheet
guard or not, so that a Moodle participant named `+Ann`, `-Dash` or `@At` still gets a feedback file and a
comment listing the tasks that lost points?"""
from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import dataclass

import pytest

from autograder.lms.graded import read_graded
from autograder.lms.moodle import moodle_import
from autograder.report.csv_report import guard, render_gradebook, unguard
from autograder.report.model import CaseResult, Report, TaskResult



@dataclass(frozen=True)
class Row:
    student: str
    report: Report
    late: bool | None = False
    source: str = "moodle"
    original: str = ""


def report(name: str) -> Report:
    tasks = [TaskResult("add", "add", 5.0, 5.0, (CaseResult("a", "passed", "public", "", "", ()),)),
             TaskResult("mul", "mul", 0.0, 5.0, (CaseResult("m", "failed", "public", "", "", ()),))]
    return Report(name, 5.0, 10.0, tasks, None, sandbox="basic", kit_version="0.1.0")


NAMES = ["+Ann_Plus_45", "-Dash_Line_46", "@At_Sign_47", "=Eq_48", "Plain_Name_49"]


@pytest.mark.parametrize("value", ["+1", "-x", "@a", "=A1", "\tx", "'quoted", "''", "'", "", "ana", "a'b"])
def test_does_unguard_undo_the_guard_for_every_value(value):
    assert unguard(guard(value)) == value
    assert not guard(value).startswith(("=", "+", "-", "@", "\t", "\r"))


def test_is_a_cell_with_a_terminal_escape_written_inert():
    assert guard("\x1b]52;c;aGk=\x07 \u202egnp.exe") == "\\x1b]52;c;aGk=\\x07 \\u202egnp.exe"


def graded_out(tmp_path, names=NAMES):
    out = tmp_path / "out"
    (out / "reports").mkdir(parents=True)
    (out / "feedback").mkdir()
    rows = [Row(s, report(s)) for s in names]
    (out / "gradebook.csv").write_text(render_gradebook(rows), encoding="utf-8", newline="")
    for s in names:
        (out / "reports" / f"{s}.json").write_text(json.dumps(
            {"tasks": [{"id": "add", "score": 5, "max_score": 5}, {"id": "mul", "score": 0, "max_score": 5}]}))
        (out / "feedback" / f"{s}.html").write_text(f"<html>{s}</html>")
    return out


def test_are_ids_beginning_with_plus_minus_or_at_read_back_as_written(tmp_path):
    out = graded_out(tmp_path)
    assert [g.student for g in read_graded(out)] == NAMES
    assert [g.lms_id("moodle") for g in read_graded(out)] == [45, 46, 47, 48, 49]


def test_does_every_moodle_participant_get_a_feedback_file_and_a_task_list(tmp_path):
    out = graded_out(tmp_path)
    sheet = [["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)", "Feedback comments"]]
    sheet += [[f"Participant {n}", "x", "", "10.00", "-", ""] for n in range(45, 50)]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(sheet)
    (tmp_path / "w.csv").write_text(text.getvalue(), encoding="utf-8")
    moodle_import(out, tmp_path / "w.csv", read_graded(out))
    with zipfile.ZipFile(out / "moodle-feedback.zip") as zf:
        folders = sorted(name.split("_assignfeedback")[0] for name in zf.namelist())
    assert folders == sorted(["+Ann Plus_45", "-Dash Line_46", "@At Sign_47", "=Eq_48", "Plain Name_49"])
    rows = list(csv.reader(io.StringIO((out / "moodle-grades.csv").read_text(encoding="utf-8"), newline="")))
    assert all("Points lost in: mul 0/5" in r[-1] for r in rows[1:])
