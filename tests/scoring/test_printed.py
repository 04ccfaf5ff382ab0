"""Does a report show what the student's code printed in a public case that failed, capped, and
never what it printed in a hidden case, in any format?"""
from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
from rich.console import Console

from autograder.cases.model import Case
from autograder.config import Rubric
from autograder.report.csv_report import render_gradebook
from autograder.report.html_report import render_feedback
from autograder.report.json_report import render_json
from autograder.report.text import print_report
from autograder.runner.protocol import TRUNCATED, CaseOutcome
from autograder.scoring import score_run
from autograder.scoring.printed import MAX_CHARS, MAX_LINES, shown

GOLDEN = {"out": 6.0}


def test_a_short_print_is_shown_as_it_is():
    assert shown("x = 2.0\ny = 3.0\n") == "x = 2.0\ny = 3.0"
    assert shown("") == shown("  \n\n") == ""


def test_a_long_print_keeps_the_first_lines_and_counts_the_rest():
    text = "".join(f"step {i}\n" for i in range(100))
    lines = shown(text).split("\n")
    assert lines[:MAX_LINES] == [f"step {i}" for i in range(MAX_LINES)]
    assert lines[MAX_LINES:] == [f"... ({100 - MAX_LINES} more lines)"]


def test_one_huge_line_is_cut_at_the_character_cap():
    out = shown("x" * 10_000)
    assert out == "x" * MAX_CHARS + "..."


def test_what_the_child_cut_is_said_to_be_cut():
    assert shown("a\nb" + TRUNCATED) == "a\nb\n... (and more, not kept)"


def _report(outputs: dict[str, str], statuses: dict[str, str]):
    cases = [Case("mul/pub", "mul", "ops.mul", {}, visibility="public", title="2 * 3"),
             Case("mul/pub-ok", "mul", "ops.mul", {}, visibility="public", title="2 * 3 again"),
             Case("mul/hid", "mul", "ops.mul", {}, visibility="hidden")]
    outcomes = {c.id: CaseOutcome(c.id, "ok", {"out": 6.0 if statuses[c.id] == "passed" else 5.0},
                                  output=outputs[c.id]) for c in cases}
    return score_run("alice", cases, outcomes, {c.id: GOLDEN for c in cases}, Rubric(points={"mul": 5}),
                     import_output="")


def _rendered(report) -> dict[str, str]:
    text = io.StringIO()
    print_report(report, Console(file=text, width=200, color_system=None), verbose=True)
    row = SimpleNamespace(student="alice", report=report, late=False, source="folder", original="alice")
    return {"text": text.getvalue(), "json": render_json(report), "html": render_feedback(report),
            "csv": render_gradebook([row])}


def test_a_failing_public_cases_prints_are_in_the_text_json_and_html_reports():
    report = _report({"mul/pub": "PUBLIC-PRINT a=2\n", "mul/pub-ok": "PASSED-PRINT\n", "mul/hid": ""},
                     {"mul/pub": "failed", "mul/pub-ok": "passed", "mul/hid": "passed"})
    case = report.task("mul").cases[0]
    assert case.status == "failed" and case.output == "PUBLIC-PRINT a=2"
    assert json.loads(render_json(report))["tasks"][0]["cases"][0]["output"] == "PUBLIC-PRINT a=2"
    for name, page in _rendered(report).items():
        assert ("PUBLIC-PRINT a=2" in page) == (name != "csv"), name
        assert "PASSED-PRINT" not in page, name  # a passing case's prints are noise


@pytest.mark.parametrize("status", ["failed", "passed"])
def test_a_hidden_cases_prints_never_reach_any_report(status):
    report = _report({"mul/pub": "", "mul/pub-ok": "", "mul/hid": "HIDDEN-INPUT 0.8125\n"},
                     {"mul/pub": "passed", "mul/pub-ok": "passed", "mul/hid": status})
    assert report.task("mul").cases[2].output == ""
    for name, page in _rendered(report).items():
        assert "HIDDEN-INPUT" not in page and "0.8125" not in page, name
