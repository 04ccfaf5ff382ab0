"""The short comment an LMS shows beside a grade: the kit's score, the tasks that lost points, why a
submission could not be graded, and whether it was late (Moodle's feedback comments, LTI's score comment)."""
from __future__ import annotations

import json
from pathlib import Path

from autograder.batch.exports import REPORTS
from autograder.lms.graded import Graded
from autograder.report.inert import inert
from autograder.report.numbers import show


def _tasks(out: Path, g: Graded) -> list[dict]:
    """The tasks of OUT/reports/<student>.json ([] when unreadable)."""
    try:
        tasks = json.loads((Path(out) / REPORTS / f"{g.student}.json").read_text(encoding="utf-8"))["tasks"]
        return [t for t in tasks if isinstance(t, dict) and {"id", "score", "max_score"} <= set(t)]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def lost_points(out: Path, g: Graded) -> list[str]:
    """"mul 3/5" for each task below full marks."""
    return [f"{t['id']} {show(t['score'])}/{show(t['max_score'])}" for t in _tasks(out, g) if t["score"] < t["max_score"]]


def report_tasks(out: Path, g: Graded) -> int:
    return len(_tasks(out, g))


def short_comment(out: Path, g: Graded) -> str:
    text = f"backprop-kit: {show(g.score)}/{show(g.max_score)}."
    short = lost_points(out, g)
    if short and len(short) == report_tasks(out, g):
        text += f" Points lost in all {len(short)} tasks."
    elif short:
        text += " Points lost in: " + ", ".join(short) + "."
    if g.error:
        text += f" {inert(g.error)}"
    if g.late:
        text += " Submitted late."
    return text
