"""The JSON form of a Report (`--format json`, reports/<id>.json).

SCHEMA history:
  1: submission, score, max_score, error, sandbox, kit_version, notes,
     tasks[id, title, score, max_score, status, cases[id, status, visibility, message, title, details]]
"""
from __future__ import annotations

import json

from autograder.report.model import Report

SCHEMA = 1


def report_dict(report: Report) -> dict:
    return {
        "schema": SCHEMA,
        "submission": report.submission,
        "score": report.score,
        "max_score": report.max_score,
        "error": report.error,
        "sandbox": report.sandbox,
        "kit_version": report.kit_version,
        "notes": list(report.notes),
        "tasks": [
            {
                "id": t.id,
                "title": t.title,
                "score": t.score,
                "max_score": t.max_score,
                "status": t.status,
                "cases": [
                    {
                        "id": c.id,
                        "status": c.status,
                        "visibility": c.visibility,
                        "message": c.message,
                        "title": c.title,
                        "details": list(c.details),
                    }
                    for c in t.cases
                ],
            }
            for t in report.tasks
        ],
    }


def render_json(report: Report) -> str:
    return json.dumps(report_dict(report), indent=2, ensure_ascii=False) + "\n"
