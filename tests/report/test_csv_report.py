"""Does the gradebook CSV survive any student id, and say what a spreadsheet needs?"""
from __future__ import annotations

import csv
import io

from autograder.report.csv_report import render_gradebook
from report_fakes import Row, case, report, task


def read(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_ids_with_commas_quotes_newlines_and_accents_come_back_unchanged():
    ids = ['Doe, Jane', 'O"Brien', "Zoë Åström", "李雷", "two\nlines"]
    rows = [Row(s, report(s, task("add", case("a")))) for s in ids]
    assert [r["student"] for r in read(render_gradebook(rows))] == ids


def test_columns_are_fixed_then_one_per_task_in_the_kits_order():
    r = report("ana", task("mul", case("m"), points=4), task("add", case("a", "failed"), points=2))
    text = render_gradebook([Row("ana", r, late=True, source="canvas")])
    header = text.splitlines()[0].split(",")
    assert header == ["student", "score", "max_score", "add", "mul", "status", "error", "late", "source", "sandbox",
                      "original"]
    (row,) = read(text)
    assert row == {"student": "ana", "score": "4", "max_score": "6", "add": "0", "mul": "4", "status": "graded",
                   "error": "", "late": "yes", "source": "canvas", "sandbox": "basic",
                   "original": ""}


def test_is_every_id_listed_beside_the_name_it_was_made_from():
    rows = [Row("rt3_coll~3f2a9c", report("a", task("add", case("a"))), original="rt3 coll"),
            Row("rt3_coll", report("b", task("add", case("a"))), original="rt3_coll")]
    got = read(render_gradebook(rows))
    assert [(r["student"], r["original"]) for r in got] == [("rt3_coll~3f2a9c", "rt3 coll"), ("rt3_coll", "rt3_coll")]


def test_an_ungraded_submission_is_a_row_with_status_error_and_the_reason():
    r = report("ben", task("add"), error='could not import micrograd: SyntaxError, "line 3"')
    (row,) = read(render_gradebook([Row("ben", r, late=None)]))
    assert row["status"] == "error" and row["error"] == 'could not import micrograd: SyntaxError, "line 3"'
    assert row["late"] == ""


def test_text_a_spreadsheet_would_run_as_a_formula_is_made_inert():
    r = report("cai", task("add"), error="=HYPERLINK(\"http://evil\")")
    (row,) = read(render_gradebook([Row("@cai", r)]))
    assert row["error"].startswith("'=") and row["student"] == "'@cai"


def test_scores_are_written_plainly():
    r = report("dee", task("add", case("a"), case("b", "failed"), case("c", "failed"), points=10))
    (row,) = read(render_gradebook([Row("dee", r)]))
    assert row["score"] == "3.33" and row["max_score"] == "10"
