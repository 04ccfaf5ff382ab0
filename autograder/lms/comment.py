"""The short comment an LMS shows beside a grade: the kit's score, the tasks that lost points, why a
submission could not be graded, and whether it was late (Moodle's feedback comments, LTI's score comment)."""
from __future__ import annotations

import json
from pathlib import Path

from autograder.batch.exports import REPORTS
from autograder.lms.graded import Graded
from autograder.report.numbers import show


def lost_points(out: Path, g: Graded) -> list[str]:
    """"mul 3/5" for each task below full marks, from OUT/reports/<student>.json ([] when unreadable)."""
    try:
        tasks = json.loads((Path(out) / REPORTS / f"{g.student}.json").read_text(encoding="utf-8"))["tasks"]
        return [f"{t['id']} {show(t['score'])}/{show(t['max_score'])}" for t in tasks if t["score"] < t["max_score"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def short_comment(out: Path, g: Graded) -> str:
    text = f"backprop-kit: {show(g.score)}/{show(g.max_score)}."
    short = lost_points(out, g)
    if short:
        text += " Points lost in: " + ", ".join(short) + "."
    if g.error:
        text += f" {g.error}"
    if g.late:
        text += " Submitted late."
    return text
