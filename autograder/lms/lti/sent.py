"""OUT/lti-sent.json: every score the platform accepted, per line item, so the next push sends only what
changed (a re-push duplicates nothing) and, after a refusal, exactly what was not sent.

    {"schema": 1, "lineitems": {"<line item URL>": {"<student>": {"user": ..., "scoreGiven": ...,
     "scoreMaximum": ..., "comment": ..., "timestamp": ...}}},
     "tags": {"<assignment tag>": "<its line item URL>"}}      (from the push that found it: offline.py)

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
        return last is not None and unchanged(last, score)

    def remember_tag(self, tag: str, lineitem: str) -> None:
        """The line item the assignment's tag found (for a dry run without the platform: offline.py)."""
        if self.data.setdefault("tags", {}).get(tag) != lineitem:
            self.data["tags"][tag] = lineitem
            self._write()

    def lineitem_of(self, tag: str | None) -> str | None:
        """The line item the tag found last; without it, the only line item scores were sent to, if one."""
        found = self.data.get("tags", {}).get(tag) if tag else None
        items = list(self.data["lineitems"])
        return found or (items[0] if len(items) == 1 else None)

    def record(self, lineitem: str, student: str, score: dict) -> None:
        self.data["lineitems"].setdefault(lineitem, {})[student] = {k: score[k] for k in (*COMPARED, "timestamp")}
        self._write()

    def _write(self) -> None:
        write_bytes_atomic(self.path, (json.dumps(self.data, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def unchanged(last: dict, score: dict) -> bool:
    """Is score what was sent last (the fields a re-push compares)?"""
    return all(last.get(k) == score.get(k) for k in COMPARED)
