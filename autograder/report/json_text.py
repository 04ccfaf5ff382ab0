"""A report's two JSON texts for a class, each case's made once: the same bytes as json_report's.

    compact_json(report)   json.dumps(report_dict(report), ensure_ascii=False): the gradebook store's row
    indented_json(report)  render_json(report): reports/<id>.json (indent 2, made inert)

A class's reports share most of their cases: a passed case, and every hidden one, reads the same in every
report that has it, and so does a failed case's graph where students made the same mistake. So each case's
two texts are kept for the rest of the process, by the case's fields (a tuple: hashed and compared in C), and a
report's texts are its own few keys around them: most of a class's cases are written once, not once per report.
tests/report/test_json_text.py compares both with json_report's on every kind of report.
"""
from __future__ import annotations

import json
from dataclasses import fields
from operator import attrgetter

from autograder.report.inert import inert_json
from autograder.report.json_indent import Raw, dumps_indented
from autograder.report.json_report import case_dict, head_dict, tail_dict, task_head
from autograder.report.model import CaseResult, Report

CASE_DEPTH = 4  # a case's place in the indented document: report > tasks > task > cases > case
KEPT = 50_000   # cases' texts kept at most (a class of a few hundred keeps a few thousand)
# where each case's text goes in a report's indented skeleton: three quotes never occur in JSON text (a string
# holds no raw quote, and two values never touch), and inert_json leaves them as they are
_MARK = '"""'
_TEXTS: dict[tuple, tuple[str, str]] = {}


def compact_json(report: Report) -> str:
    """json.dumps(report_dict(report), ensure_ascii=False), byte for byte."""
    head, heads, tail, texts = _parts(report)
    compact, tasks, i = [text for text, _ in texts], [], 0
    for task, task_keys in zip(report.tasks, heads):
        n = len(task.cases)
        tasks.append("{" + _items(task_keys) + ', "cases": [' + ", ".join(compact[i:i + n]) + "]}")
        i += n
    tail_text = _items(tail)
    return "{" + _items(head) + ', "tasks": [' + ", ".join(tasks) + "]" + (", " + tail_text if tail_text else "") + "}"


def indented_json(report: Report) -> str:
    """json_report.render_json(report), byte for byte."""
    head, heads, tail, texts = _parts(report)
    mark = Raw(_MARK)  # where a task's list of cases goes: written here from its cases' texts
    tasks = [{**task_keys, "cases": mark if task.cases else []} for task, task_keys in zip(report.tasks, heads)]
    pieces = inert_json(dumps_indented({**head, "tasks": tasks, **tail})).split(_MARK)
    out, i = [pieces[0]], 0
    for task, piece in zip((task for task in report.tasks if task.cases), pieces[1:]):
        n = len(task.cases)
        out += ("[", _CASE_LINE, _CASES_BETWEEN.join([text for _, text in texts[i:i + n]]), _CASES_END, piece)
        i += n
    out.append("\n")
    return "".join(out)


# a list of cases as dumps_indented writes it in its place (report > tasks > task > cases): each case on a line of
# its own, indented CASE_DEPTH levels, and the closing bracket one level less
_CASE_LINE = "\n" + "  " * CASE_DEPTH
_CASES_BETWEEN = "," + _CASE_LINE
_CASES_END = "\n" + "  " * (CASE_DEPTH - 1) + "]"


def _parts(report: Report) -> tuple[dict, list[dict], dict, list[tuple[str, str]]]:
    """The report's keys before its tasks, each task's keys before its cases, its keys after the tasks (read-only),
    and its cases' texts (_case_texts). The last report's are kept: a batch stores a row (compact_json) and then
    writes reports/<id>.json (indented_json) of the same Report object, and each task's next step is worked out once."""
    if _LAST and _LAST[0] is report:
        return _LAST[1]
    parts = head_dict(report), [task_head(t, report) for t in report.tasks], tail_dict(report), _case_texts(report)
    _LAST[:] = [report, parts]  # the Report is held, so no other object can take its id meanwhile
    return parts


def _case_texts(report: Report) -> list[tuple[str, str]]:
    """(compact, indented and inert) text of each case of the report, in order."""
    texts = []
    for task in report.tasks:
        for case in task.cases:
            # a case's fields as one tuple, hashed and compared in C; a graph's numbers by their own text (0.0 and
            # -0.0 are equal numbers, written differently)
            key = _KEY(case) if case.graph is None else _compact(case_dict(case))
            found = _TEXTS.get(key)
            if found is None:
                if len(_TEXTS) >= KEPT:
                    _TEXTS.clear()
                data = case_dict(case)
                found = _TEXTS[key] = _compact(data), inert_json(dumps_indented(data, depth=CASE_DEPTH))
            texts.append(found)
    return texts


_KEY = attrgetter(*(f.name for f in fields(CaseResult) if f.name != "graph"))
_LAST: list = []


# json.dumps(x, ensure_ascii=False) is this encoder's encode(x): made once, not on every call as json.dumps does
_compact = json.JSONEncoder(ensure_ascii=False).encode


def _items(data: dict) -> str:
    """A dict's items as json.dumps writes them inside its braces (", " and ": " between)."""
    return _compact(data)[1:-1]
