"""The small harness of the repairs' unit tests: a student's file in a package, repaired as the kit would."""
from __future__ import annotations

import textwrap
from pathlib import Path

from autograder.diagnosis.repair.apply import repaired


def repair(tmp_path: Path, task: str, mistake: str, files: dict[str, str]) -> tuple[dict[str, str], list]:
    """files: path under micrograd/ -> source (dedented). (the repaired texts, the edits of `mistake`)."""
    package = tmp_path / "micrograd"
    for rel, text in files.items():
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    texts, edits = repaired(package, task, (mistake,))
    return texts, edits[mistake]


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]
