"""A Report as PrairieLearn's external grader results.json (PrairieLearn docs/externalGrading.md, "Grading
results"): gradable, score in [0, 1], message, output, and per task one test with name, description,
points, max_points, message, output (the kit's text for its public cases: expected, got, derivation,
hint) and, for a failing public case with a graph, its picture as an image (an SVG data URL, when
graphviz's dot is here). How the task's hidden cases went is said in counts, never their inputs.

`not_gradable(message)`: the kit itself could not grade (the sandbox, the kit's own failure): PrairieLearn
then awards and takes nothing and does not count the attempt.
"""
from __future__ import annotations

import base64

from autograder.report import graph_svg, graph_twin
from autograder.report.model import Report
from autograder.report.next_step import next_step
from autograder.report.numbers import show
from autograder.report.task_text import explain_task

MAX_BYTES = 1_000_000     # PrairieLearn's limit on results.json
IMAGE_BUDGET = 600_000    # what the pictures may take of it, together


def results_json(report: Report) -> dict:
    tests, budget = [], IMAGE_BUDGET
    for task in report.tasks:
        hidden = [c for c in task.cases if c.visibility == "hidden"]
        passed = sum(c.status == "passed" for c in hidden)
        test = {
            "name": f"{task.id}: {task.title}",
            "description": f"{len(hidden)} hidden case(s) too, {passed} passed (they count in this score)"
                           if hidden else "public cases only",
            "points": task.score,
            "max_points": task.max_score,
            "message": "passed" if task.max_score and task.score >= task.max_score else
                       (report.error or _said(next_step(task, report)) or "points lost: see the output"),
            "output": explain_task(task, visibility="public", report=report),
        }
        images = _images(task, budget)
        if images:
            budget -= sum(len(i["url"]) for i in images)
            test["images"] = images
            test["output"] += "\n" + _words(task)  # the picture's text twin: what it shows, node by node
        tests.append(test)
    score = report.score / report.max_score if report.max_score else 0.0
    return {
        "gradable": True,
        "score": min(1.0, max(0.0, score)),
        "message": f"backprop-kit: {show(report.score)}/{show(report.max_score)}"
                   + (f" on your variant, {report.variant.label}" if report.variant is not None else "")
                   + (f" — your submission could not be graded: {report.error}" if report.error else ""),
        "output": _output(report),
        "tests": tests,
    }


def _said(step) -> str:
    """The next step in one message: the rule, where, and what to do."""
    return f"{step.rule} Where: {step.where}. Next: {step.do}" if step is not None else ""


def _words(task) -> str:
    """The pictured case's graph in words, one line per node (graph_svg.text), under a heading."""
    case = next(c for c in task.cases if c.graph is not None and c.visibility == "public")
    return "\n".join([f"The graph of {case.id} in words ({graph_twin.said(case.graph)}):",
                      *(f"  {line}" for line in graph_svg.text(case.graph))])


def not_gradable(message: str) -> dict:
    return {"gradable": False, "score": 0.0, "message": message, "format_errors": [message], "tests": []}


def _images(task, budget: int) -> list[dict]:
    """The picture of the task's first failing public case with a graph, if dot draws it within budget."""
    case = next((c for c in task.cases if c.graph is not None and c.visibility == "public"), None)
    if case is None or graph_svg.missing() is not None:
        return []
    picture = graph_svg.svg(case.graph, f"{case.id}: {case.message}")
    if picture is not None:
        picture = graph_twin.labelled(picture, "graph", f"The graph of {case.id}. {graph_twin.said(case.graph)}")
    if picture is None:
        return []
    url = "data:image/svg+xml;base64," + base64.b64encode(picture.encode("utf-8")).decode("ascii")
    label = f"The graph of {case.id}: wrong values marked ✗ in red; the same in words in the output. {graph_twin.said(case.graph)}"
    return [{"label": label, "url": url}] if len(url) <= budget else []


def _output(report: Report) -> str:
    lines = [f"backprop-kit: {show(report.score)}/{show(report.max_score)}"]
    lines += [f"note: {n}" for n in report.without_sandbox_notes().notes]
    if report.import_output:
        lines.append("Your code printed while it was imported:\n" + report.import_output)
    return "\n".join(lines)
