"""The JSON form of a Report (`--format json`, reports/<id>.json).

SCHEMA history:
  1: submission, score, max_score, error, sandbox, kit_version, notes,
     tasks[id, title, score, max_score, status, cases[id, status, visibility, message, title, details]]
  2: cases[output]: what the student's code printed during a public case that did not pass
     (capped, "" otherwise; never a hidden case's), and import_output: what it printed while
     it was imported, when an import failed ("" otherwise); cases[counted]: false for an
     end-to-end case whose failure is charged to another task (backward()) and not to this one,
     named in cases[charged_to] (only there)
  3: tasks[diagnosis]: the classic mistakes the task's observations fit, [{id, message}]
     (autograder/diagnosis/catalogue.py lists the ids); [] when none fits, always [] for a task that passed;
     cases[graph]: a failed public case's graph as the feedback draws it, {nodes: [{name, data, op,
     children, grad, expected, data_got, wrong_grad, wrong_data, note}]} (null otherwise)
  4: cases[graph] also {origin, after, step}: the node whose own step is the first wrong one ("" when
     the numbers don't single one out), the wrong nodes wrong only because of it, and the sentence
     saying so (autograder/cases/origin.py)
  5: import_errors: the student's modules that did not import, each with why in one line
     ({"nn": "nn.py:3: SyntaxError: invalid syntax"}; every module when the import hung or died; {} otherwise)
  (5, unchanged for a course without [variants]) variant: present only for a report graded against a
     student's variant: {student, op, constant, activation, seed, label}; and forensic_samples, when a
     batch graded it: [{op, out, grad}] (what its extra operations gave at forensics' inputs, never scored)
  6: tasks[where]: where the student wrote the task's code, "engine.py:47" ("" when not found);
     tasks[next_step]: what a failing task opens with (report/next_step.py), {where, rule, do, case, same,
     and for a SyntaxError source and caret}, null for a task that passed; import_syntax: the line of each
     module that did not import with a SyntaxError, {"engine": {"line": "<its text>", "column": 38}}
     tasks[diagnosis] entries also {proven, fix, where}: proven, whether the repair the mistake implies, made on a
     copy of the student's code, made every case of the task pass (autograder/diagnosis/repair/); fix, the change
     that did, in one sentence (null unless proven and the course's [feedback] diagnosis is "fix"); where, the
     line it changed, {file, line} (a notebook's also {cell}, the line within it), or null
A task's status is judged on its counted cases: "passed" when every case that counts there passed
(its score is then full), though cases with counted: false may have failed.
"""
from __future__ import annotations

from dataclasses import fields

from autograder.report.inert import inert_json
from autograder.report.json_indent import dumps_indented
from autograder.report.model import CaseGraph, CaseResult, Diagnosis, GraphNode, Report, TaskResult
from autograder.report.next_step import next_step

SCHEMA = 6


def report_dict(report: Report) -> dict:
    """The report as JSON data (read-only: the last one is kept, since a batch stores a row and then writes
    reports/<id>.json from the same Report object)."""
    if _LAST and _LAST[0] is report:
        return _LAST[1]
    data = _report_dict(report)
    _LAST[:] = [report, data]  # the Report is held, so no other object can take its id meanwhile
    return data


_LAST: list = []


def _report_dict(report: Report) -> dict:
    return {**head_dict(report),
            "tasks": [{**task_head(t, report), "cases": [case_dict(c) for c in t.cases]} for t in report.tasks],
            **tail_dict(report)}


def head_dict(report: Report) -> dict:
    """The report's keys before "tasks", in their order."""
    return {
        "schema": SCHEMA,
        "submission": report.submission,
        "score": report.score,
        "max_score": report.max_score,
        "error": report.error,
        "sandbox": report.sandbox,
        "kit_version": report.kit_version,
        "notes": list(report.notes),
        "import_output": report.import_output,
        "import_errors": dict(report.import_errors),
        "import_syntax": {module: {"line": line, "column": column} for module, line, column in report.syntax},
    }


def task_head(t: TaskResult, report: Report) -> dict:
    """A task's keys before "cases", in their order."""
    step = next_step(t, report)
    return {"id": t.id, "title": t.title, "score": t.score, "max_score": t.max_score, "status": t.status,
            "diagnosis": [diagnosis_dict(d) for d in t.diagnosis], "where": t.where,
            "next_step": step.as_dict() if step is not None else None}


def diagnosis_dict(d: Diagnosis) -> dict:
    where = None if d.where is None else {"file": d.where.file, "line": d.where.line,
                                          **({"cell": d.where.cell} if d.where.cell is not None else {})}
    return {"id": d.id, "message": d.message, "proven": d.proven, "fix": d.fix, "where": where}


def case_dict(c: CaseResult) -> dict:
    return {
        "id": c.id,
        "status": c.status,
        "visibility": c.visibility,
        "message": c.message,
        "title": c.title,
        "details": list(c.details),
        "output": c.output,
        "counted": c.counted,
        "graph": graph_dict(c.graph),
        **({"charged_to": list(c.charged_to)} if c.charged_to else {}),
    }


def tail_dict(report: Report) -> dict:
    """The report's keys after "tasks" (only with variants), in their order."""
    data = {}
    if report.variant is not None:
        data["variant"] = {**report.variant.to_json(), "label": report.variant.label}
    if report.samples:
        data["forensic_samples"] = [{"op": op, "out": list(outs), "grad": list(grads)} for op, outs, grads in report.samples]
    return data


def graph_dict(graph: CaseGraph | None) -> dict | None:
    if graph is None:
        return None
    return {"nodes": [{**{f: getattr(n, f) for f in _NODE_FIELDS}, "children": list(n.children)} for n in graph.nodes],
            "origin": graph.origin, "after": list(graph.after), "step": graph.step}


_NODE_FIELDS = tuple(f.name for f in fields(GraphNode))  # in their order, as dataclasses.asdict gives them


def render_json(report: Report) -> str:
    return inert_json(dumps_indented(report_dict(report))) + "\n"
