"""A Report as Gradescope's results.json (the autograder specification, gradescope/autograder_samples
docs/specs.md): a top-level score, execution_time and output, and per task one test with name, score,
max_score, status and output (the kit's text for that task's public cases: expected, got,
derivation, hint), visible; and, for a task with hidden cases, a second test worth no points that
says how they went (never their inputs), shown as `hidden_visibility` says (after_published by
default: when the instructor publishes the grades).
"""
from __future__ import annotations

import math

from autograder.report.inert import inert
from autograder.report.model import Report
from autograder.report.numbers import show
from autograder.report.task_text import explain_task

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


def results_json(report: Report, *, execution_time: float = 0.0, hidden_visibility: str = "after_published") -> dict:
    if hidden_visibility not in VISIBILITIES:
        raise ValueError(f"hidden_visibility must be one of {', '.join(VISIBILITIES)}, not {hidden_visibility!r}")
    tests = []
    for task in report.tasks:
        passed = math.isclose(task.score, task.max_score) and task.max_score > 0
        tests.append({
            "name": f"{task.id}: {task.title}",
            "number": str(len(tests) + 1),
            "score": task.score,
            "max_score": task.max_score,
            "status": "passed" if passed else "failed",
            "output": inert(_task_output(report, task)),
            "output_format": "text",
            "tags": [task.id],
            "visibility": "visible",
        })
        hidden = [c for c in task.cases if c.visibility == "hidden"]
        if hidden:
            # as the task's own status: judged on the cases that count here, the others said apart
            counted = [c for c in hidden if c.counted]
            ok = sum(c.status == "passed" for c in counted)
            waived = len(hidden) - len(counted)
            kinds = sorted({c.message for c in counted if c.status != "passed" and c.message})
            tests.append({
                "name": f"{task.id}: hidden cases",
                "number": str(len(tests) + 1),
                "score": 0.0,
                "max_score": 0.0,
                "status": "passed" if ok == len(counted) else "failed",
                "output": inert(f"{ok} of {len(counted)} hidden cases passed (they count in the score of "
                                f"{task.id} above)." + "".join(f"\n  - {k}" for k in kinds)
                                + (f"\n{waived} more failed through {', '.join(_charged_to(hidden))}, which "
                                   "fails its own cases: not counted here" if waived else "")),
                "output_format": "text",
                "tags": [task.id, "hidden"],
                "visibility": hidden_visibility,
            })
    return {
        "score": report.score,
        "execution_time": max(0, round(execution_time)),
        "output": inert(_summary(report)),  # shown on a page: nothing in it acts
        "output_format": "text",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def _charged_to(cases) -> list[str]:
    return sorted({t for c in cases if not c.counted for t in c.charged_to}) or ["a task they need"]


def _task_output(report: Report, task) -> str:
    if report.error:
        return f"{task.id}: 0/{show(task.max_score)} — {report.error}"
    text = explain_task(task, visibility="public", report=report)
    if task.score < task.max_score and "\n" not in text:
        text += "\n  (points lost in hidden cases only: see the hidden cases below when grades are published)"
    return text


def _summary(report: Report) -> str:
    lines = [f"backprop-kit: {show(report.score)}/{show(report.max_score)}"]
    if report.variant is not None:
        lines.append(f"Graded against your variant: {report.variant.label}")
    if report.error:
        lines.append(f"Your submission could not be graded: {report.error}")
    lines += [f"note: {n}" for n in report.without_sandbox_notes().notes]
    if report.import_output:
        lines.append("Your code printed while it was imported:\n" + report.import_output)
    return "\n".join(lines)
