"""Grades submissions the way a grading process does, after putting a key of its own in its session keyring.

    python keyring_driver.py DESCRIPTION PAYLOAD FOLDER...

Run by tests/hostile/test_keyrings.py as a process of its own (its environment chooses the sandbox level):
it first joins a new session keyring of its own (so that nothing it adds outlives it), adds a "user" key
DESCRIPTION holding PAYLOAD there, as a login keeps an instructor's Kerberos tickets, then grades each
FOLDER in turn with grading.grade_path (one process: the same zygote, the same uid slots) and prints one
JSON line: each folder's report, as reports/<id>.json would hold it.
"""
from __future__ import annotations

import ctypes
import json
import sys
from pathlib import Path

SYS_ADD_KEY, SYS_KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[__import__("os").uname().machine]
KEYCTL_JOIN_SESSION_KEYRING, KEY_SPEC_SESSION_KEYRING = 1, -3


def add_grader_key(description: str, payload: str) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        raise OSError(ctypes.get_errno(), "keyctl join")
    data = payload.encode()
    key = libc.syscall(SYS_ADD_KEY, b"user", description.encode(), data, len(data),
                       ctypes.c_long(KEY_SPEC_SESSION_KEYRING))
    if key < 0:
        raise OSError(ctypes.get_errno(), "add_key")
    return key


def main(argv: list[str]) -> None:
    from autograder.config import from_mapping
    from autograder.grading import grade_path
    from autograder.report.json_report import report_dict

    description, payload, *folders = argv
    add_grader_key(description, payload)
    rubric = from_mapping({"case_timeout": 2.0, "import_timeout": 4.0}, source="keyring test")
    reports = [report_dict(grade_path(Path(f), rubric=rubric, include_hidden=False, name=Path(f).name))
               for f in folders]
    print(json.dumps(reports))


if __name__ == "__main__":
    main(sys.argv[1:])
