"""Does a class's summary on the terminal find who could not be graded, and whose grading crashed, in one walk that
reads out only those rows? (issue 32, item 2: a rerun of 20,000 walked the whole class twice for them, each brief
made a row.)"""
from __future__ import annotations

from dataclasses import replace

import pytest

from autograder.batch import row as row_module
from autograder.batch.class_rows import StoredRows
from autograder.batch.keys import GradeKey
from autograder.batch.row import BatchRow
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import fake_report

RUBRIC = Rubric(hidden_seed=42)


@pytest.fixture
def rows(tmp_path):
    """ana graded, ben refused (an error), cy crashed (not final), dee with a key and no row (the kit lost it),
    eve not graded (a row made in memory, with its error), fay graded."""
    store = Store(tmp_path / "gradebook.sqlite")
    keys = {s: GradeKey(f"{i:064x}", "kit", "42", "rubric") for i, s in enumerate(["ana", "ben", "cy", "dee", "fay"])}
    for s in ("ana", "ben", "cy", "fay"):
        report = fake_report(s, RUBRIC)
        report = replace(report, error="refused: it imports torch") if s == "ben" else report
        store.put(BatchRow(s, report, final=s != "cy"), keys[s])
    made = {"eve": BatchRow("eve", replace(fake_report("eve", RUBRIC), error="not on the roster"))}
    lost = lambda s: BatchRow(s, replace(fake_report(s, RUBRIC), error="lost"), final=False)  # noqa: E731
    yield StoredRows(store, ["ana", "ben", "cy", "dee", "eve", "fay"], keys.get, made=made, lost=lost)
    store.close()


def test_are_the_flagged_rows_those_a_whole_walk_finds_in_its_order(rows):
    whole = [r for r in rows if r.ungradable or not r.final]
    assert [r.student for r in rows.flagged()] == [r.student for r in whole] == ["ben", "cy", "dee", "eve"]
    assert rows.flagged() == tuple(whole)


def test_does_finding_them_make_no_brief_a_report(rows, monkeypatch):
    def parse(text):
        raise AssertionError("a brief was parsed")

    monkeypatch.setattr(row_module, "brief_from_json", parse)
    assert [r.student for r in rows.flagged() if not r.final] == ["cy", "dee"]


def test_are_they_found_once_the_store_is_closed_as_a_results_rows_are(rows):
    rows.store.close()
    assert [r.student for r in rows.flagged()] == ["ben", "cy", "dee", "eve"]
