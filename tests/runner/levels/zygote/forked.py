"""What the zygote's tests share: the level (or a skip where there is none) and a student made from the solutions."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder.runner import Limits, levels
from autograder.runner.levels.zygote.level import ZygoteLevel

KIT = Path(__file__).resolve().parents[4]
LIMITS = Limits(case_timeout=2.0, import_timeout=5.0)


def zygote_level() -> ZygoteLevel:
    level = levels.current()
    if not isinstance(level, ZygoteLevel):
        pytest.skip(f"no zygote at this level ({level.name}: the grader is not root, or no setpriv)")
    return level


def student(tmp_path: Path, name: str, code: str) -> Path:
    """The solutions' package in tmp_path/name, with `code` run at the end of its engine.py's import."""
    root = tmp_path / name
    shutil.copytree(KIT / "solutions" / "micrograd", root / "micrograd")
    engine = root / "micrograd" / "engine.py"
    engine.write_text(engine.read_text() + "\n" + code)
    return root
