"""What session.py sends a child: the header (everything but the cases' inputs), and each case's line up to its
nonce, made once a process (sent with a fresh nonce).

The same (frozen) Case objects serve every submission (grading.select_cases), so the line is kept by the
object itself, not its id: an id is not reused while its object is held here.
"""
from __future__ import annotations

import json
from pathlib import Path

from autograder.cases.model import Case
from autograder.runner.limits import Limits
from autograder.runner.packages import package_paths

_PAYLOADS: dict[int, tuple[Case, bytes]] = {}  # id(case) -> (the case, its line up to the nonce)
MAX_PAYLOADS = 20_000                           # cases kept at most (a class's are a few hundred)


def payload(case: Case) -> bytes:
    """The case's line up to its nonce: `{"case": ..., "nonce": "`."""
    held = _PAYLOADS.get(id(case))
    if held is not None and held[0] is case:
        return held[1]
    if len(_PAYLOADS) >= MAX_PAYLOADS:
        _PAYLOADS.clear()
    line = b'{"case": ' + json.dumps(case.to_job()).encode() + b', "nonce": "'
    _PAYLOADS[id(case)] = (case, line)
    return line


def header(root: Path, cases: list[Case], nonce: str, forbidden: list[str], allowed: list[str], limits: Limits,
           files: dict[str, str]) -> dict:
    """The header: everything but the cases' inputs, which come one at a time."""
    return {
        "student_root": str(root),
        "nonce": nonce,
        "cases": [{"id": case.id, "program": case.program} for case in cases],  # programs to load
        "forbidden": forbidden,
        "allowed": allowed,
        "packages": list(package_paths(tuple(allowed))),  # Child turns them into the child's "site"
        "output_cap": limits.output_cap,
        "max_result_line": limits.max_result_line,
        "import_seconds": limits.import_timeout,  # a notebook's cells share it (child/cells.py)
        "files": files,
    }
