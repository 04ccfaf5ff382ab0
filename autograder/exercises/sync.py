"""Keep exercises/ generated from solutions/: write it, or list where it differs."""
from __future__ import annotations

from pathlib import Path

from autograder.exercises.markers import strip_solutions
from autograder.files import write_text_atomic


def _expected(solutions: Path) -> dict[Path, str]:
    """Relative path -> exercise text, for every .py file under solutions/."""
    return {
        path.relative_to(solutions): strip_solutions(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(solutions.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def write_exercises(solutions: Path, exercises: Path) -> list[Path]:
    """Write every exercise file; return the ones whose content changed."""
    expected = _expected(solutions)  # strip everything first: a marker error writes nothing
    changed = []
    for rel, text in expected.items():
        target = exercises / rel
        if target.exists() and target.read_text(encoding="utf-8") == text:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, text)  # a private temporary name, never a fixed .tmp
        changed.append(target)
    for stale in _stale(exercises, expected):
        stale.unlink()
        changed.append(stale)
    return changed


def check_exercises(solutions: Path, exercises: Path) -> list[str]:
    """One line per exercise file that is missing, different or left over; [] when in sync."""
    expected = _expected(solutions)
    problems = []
    for rel, text in expected.items():
        target = exercises / rel
        if not target.exists():
            problems.append(f"{target}: missing")
        elif target.read_text(encoding="utf-8") != text:
            problems.append(f"{target}: differs from what {solutions / rel} generates")
    problems += [f"{stale}: has no source in {solutions}" for stale in _stale(exercises, expected)]
    return problems


def _stale(exercises: Path, expected: dict[Path, str]) -> list[Path]:
    if not exercises.exists():
        return []
    return [
        path for path in sorted(exercises.rglob("*.py"))
        if "__pycache__" not in path.parts and path.relative_to(exercises) not in expected
    ]
