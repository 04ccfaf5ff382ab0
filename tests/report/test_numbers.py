"""Is a score shown with at most 2 decimals everywhere a person reads it, and kept whole in the JSON?"""
from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from autograder.report.csv_report import render_gradebook
from autograder.report.html_report import render_feedback
from autograder.report.json_report import render_json
from autograder.report.numbers import show
from autograder.report.summary import build_summary, render_markdown
from autograder.report.text import print_report
from report_fakes import Row, case, report, task


@pytest.mark.parametrize("x, shown", [
    (94.23076923, "94.23"), (12.0, "12"), (2.5, "2.5"), (100, "100"), (0.0, "0"), (-0.0, "0"),
    (3.125, "3.13"), (2.675, "2.68"), (99.999, "100"), (0.004, "0"), (1 / 3, "0.33"),
])
def test_show(x, shown):
    assert show(x) == shown


def a_report():
    # 13 cases, 12 passed: 15 * 12/13 = 13.846153..., a total of 98.846153...
    backward = task("backward", *[case(f"b{i}") for i in range(12)], case("b12", "failed"), points=15)
    rest = task("add", case("a"), points=85)
    return report("ana", backward, rest)


def test_every_reporter_shows_two_decimals_at_most():
    r = a_report()
    assert 98.8461 < r.score < 98.8462
    gradebook = render_gradebook([Row("ana", r)])
    assert ",98.85,100," in gradebook and ",13.85," in gradebook and "98.846" not in gradebook
    page = render_feedback(r)
    assert "98.85 / 100" in page and "13.85 / 15" in page and "98.846" not in page
    md = render_markdown(build_summary([r]))
    assert "98.85 / 100" in md and "98.846" not in md
    out = io.StringIO()
    print_report(r, Console(file=out, width=200, color_system=None, highlight=False))
    assert "Score: 98.85 / 100" in out.getvalue() and "13.85/15" in out.getvalue()
    assert "98.846" not in out.getvalue()


def test_the_json_report_keeps_full_precision():
    r = a_report()
    data = json.loads(render_json(r))
    assert data["score"] == r.score and data["tasks"][0]["score"] == 15 * 12 / 13
