"""OUT/lti-sent.json: every score the platform accepted, per line item, so the next push sends only what
changed (a re-push duplicates nothing) and, after a refusal, exactly what was not sent.

    {"schema": 1, "lineitems": {"<line item URL>": {"<student>": {"user": ..., "scoreGiven": ...,
     "scoreMaximum": ..., "comment": ..., "timestamp": ...}}}}

Written atomically after each accepted score: a push stopped half-way (a refusal, Ctrl-C) loses nothing.
"""
from __future__ import annotations

import json
from pathlib import Path

from autograder.files import write_bytes_atomic
from autograder.lms.graded import LmsError

NAME = "lti-sent.json"
SCHEMA = 1
COMPARED = ("user", "scoreGiven", "scoreMaximum", "comment")


class Sent:
    def __init__(self, out: Path):
        self.path = Path(out) / NAME
        self.data = {"schema": SCHEMA, "lineitems": {}}
        if self.path.is_file():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                assert data.get("schema") == SCHEMA and isinstance(data.get("lineitems"), dict)
            except (OSError, ValueError, AssertionError):
                raise LmsError(f"{self.path}: not the record of sent scores the kit writes: move it away "
                               "(the next push then sends every score again, which changes nothing on the platform)") from None
            self.data = data

    def last(self, lineitem: str, student: str) -> dict | None:
        return self.data["lineitems"].get(lineitem, {}).get(student)

    def unchanged(self, lineitem: str, student: str, score: dict) -> bool:
        last = self.last(lineitem, student)
        return last is not None and all(last.get(k) == score.get(k) for k in COMPARED)

    def record(self, lineitem: str, student: str, score: dict) -> None:
        self.data["lineitems"].setdefault(lineitem, {})[student] = {k: score[k] for k in (*COMPARED, "timestamp")}
        write_bytes_atomic(self.path, (json.dumps(self.data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
