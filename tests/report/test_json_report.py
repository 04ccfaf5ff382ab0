"""Is a report's JSON data built once when a batch both stores it and writes it, and still each report's own?"""
from __future__ import annotations

import json
from dataclasses import replace

from autograder.report.json_report import render_json, report_dict
from autograder.report.model import CaseGraph, GraphNode
from report_fakes import case, report, task


def test_is_the_same_reports_data_built_once_and_another_reports_its_own():
    first = report("ana", task("mul", case("m1", "failed", message="got 2")))
    data = report_dict(first)
    assert report_dict(first) is data  # the store's row, then reports/<id>.json: one build
    other = replace(first, submission="ben")
    assert report_dict(other)["submission"] == "ben" and report_dict(first)["submission"] == "ana"


def test_is_the_written_json_the_data_as_json_dumps_indents_it_with_the_graphs_fields_in_order():
    node = GraphNode("x0", 2.0, children=("a",), grad=1.0, expected=4.0, wrong_grad=True)
    r = report("ana", task("mul", replace(case("m1", "failed"), graph=CaseGraph((node,), origin="x0"))))
    text = render_json(r)
    assert text == json.dumps(report_dict(r), indent=2, ensure_ascii=False) + "\n"
    shown = json.loads(text)["tasks"][0]["cases"][0]["graph"]["nodes"][0]
    assert list(shown) == ["name", "data", "op", "children", "grad", "expected", "data_got", "wrong_grad",
                           "wrong_data", "note"] and shown["children"] == ["a"]
