"""Are a report's JSON texts for a class, made from each case's kept text, json_report's to the byte?"""
from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings

from autograder.report.json_report import render_json, report_dict
from autograder.report.json_text import compact_json, indented_json
from autograder.report.model import CaseGraph, CaseResult, GraphNode, Report, TaskResult
from autograder.variants.model import Variant
from test_every_report_renders import reports


def compact(report: Report) -> str:
    return json.dumps(report_dict(report), ensure_ascii=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_is_every_kind_of_report_written_as_json_report_writes_it(report):
    assert compact_json(report) == compact(report)
    assert indented_json(report) == render_json(report)
    assert indented_json(report) == render_json(report)  # its cases' texts kept now


def test_does_a_case_kept_from_one_report_read_the_same_in_another():
    passed = CaseResult("mul-1", "passed", "hidden")
    odd = CaseResult("add-1", "failed", "public", 'said """ and \u202e and \x1b[2J', "t", ("got 1", '"""'))
    first = Report("ana", 1.0, 2.0, (TaskResult("mul", "Mul", 1.0, 1.0, (passed,)),
                                     TaskResult("add", "Add", 0.0, 1.0, (odd, passed))))
    second = replace(first, submission="ben", notes=("\u202e note",), tasks=first.tasks[::-1],
                     variant=Variant(student="ben", op="sigmoid", constant=1.5, seed=7),
                     samples=(("sigmoid", (0.5, float("nan")), (0.25,)),))
    for report in (first, second, first):
        assert compact_json(report) == compact(report)
        assert indented_json(report) == render_json(report)


def test_are_reports_without_tasks_or_cases_written_the_same():
    for report in (Report("ana", 0.0, 0.0, error="refused"),
                   Report("ben", 0.0, 1.0, (TaskResult("mul", "Mul", 0.0, 1.0),))):
        assert compact_json(report) == compact(report)
        assert indented_json(report) == render_json(report)


def test_are_equal_numbers_written_differently_kept_apart():
    """0.0 == -0.0, but JSON writes them differently: a graph kept for one must not stand for the other."""
    def report(grad: float) -> Report:
        graph = CaseGraph((GraphNode("a", 1.0, grad=grad, expected=1.0, wrong_grad=True),))
        case = CaseResult("mul-1", "failed", "public", "wrong grad", "t", graph=graph)
        return Report("ana", 0.0, 1.0, (TaskResult("mul", "Mul", 0.0, 1.0, (case,)),))

    for grad in (0.0, -0.0, 0.0):
        assert compact_json(report(grad)) == compact(report(grad))
        assert indented_json(report(grad)) == render_json(report(grad))
