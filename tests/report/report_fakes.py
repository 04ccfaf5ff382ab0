"""Small reports for the reporter tests, built by hand."""
from __future__ import annotations

from dataclasses import dataclass

from autograder.report.model import CaseResult, Report, TaskResult


def case(cid: str, status: str = "passed", visibility: str = "public", message: str = "", title: str = "",
         details: tuple[str, ...] = ()) -> CaseResult:
    return CaseResult(cid, status, visibility, message, title, details)


def task(tid: str, *cases: CaseResult, points: float = 5.0) -> TaskResult:
    passed = sum(c.status == "passed" for c in cases)
    return TaskResult(tid, f"the {tid} task", points * passed / len(cases) if cases else 0.0, points, cases)


def report(name: str, *tasks: TaskResult, error: str | None = None) -> Report:
    return Report(name, sum(t.score for t in tasks), sum(t.max_score for t in tasks), tasks, error,
                  sandbox="basic", kit_version="0.1.0")


@dataclass(frozen=True)
class Row:
    student: str
    report: Report
    late: bool | None = False
    source: str = "folder"
    original: str = ""
