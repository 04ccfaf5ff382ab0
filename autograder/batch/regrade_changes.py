"""What a regrade changed, per student: OUT/regrade-changes.csv and .md.

Written by a run that grades again students of the folder's last class (after a rubric, case or kit change,
a new submission, --regrade): each student whose score moved, the old and new score, the tasks that moved
(old -> new points) and why, from what the folder remembers of the last run (batch/regrade.py):
  - the student's code changed (the submission's digest),
  - the kit changed (its version), the hidden cases were drawn anew (the hidden seed),
  - the rubric: a tolerance, a task's points, a timeout, the activation, the [variants] table,
  - per task: cases added or removed, cases whose outcome changed, the mistake model that names the mistake.
Where none of these is seen, the line says only that the cases' outcomes changed. A run that grades none of
the last class again leaves the last such file as it is.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Container, Iterable, Mapping, Sequence

from autograder.batch.brief import brief_of
from autograder.batch.class_rows import StoredRows
from autograder.batch.keys import GradeKey
from autograder.batch.regrade import LastClass, rubric_settings
from autograder.batch.store import BatchRow, Store
from autograder.config import Rubric
from autograder.files import write_text_atomic
from autograder.report.inert import inert
from autograder.report.model import Report, TaskResult
from autograder.report.numbers import show

CSV_NAME, MD_NAME = "regrade-changes.csv", "regrade-changes.md"
HEADER = ("student", "old_score", "new_score", "max_score", "tasks", "why")
_SETTINGS = {"rel_tol": "the relative tolerance", "abs_tol": "the absolute tolerance",
             "case_timeout": "the case timeout", "import_timeout": "the import timeout",
             "memory_mb": "the memory limit", "submission_budget": "the submission's time budget",
             "activation": "the activation", "forbidden_imports": "the forbidden imports",
             "allowed_imports": "the allowed imports", "variants": "the [variants] table or secret"}


@dataclass(frozen=True)
class Change:
    student: str
    old: Report
    new: Report
    tasks: tuple[tuple[str, float, float], ...]   # (task, old points, new points) of each task that moved
    why: tuple[str, ...]

    def cells(self) -> list[str]:
        moved = "; ".join(f"{t} {show(a)} -> {show(b)}" for t, a, b in self.tasks)
        return [self.student, show(self.old.score), show(self.new.score), show(self.new.max_score), moved,
                "; ".join(self.why)]


def changes(old_rows: Mapping[str, BatchRow], new_rows: Iterable[BatchRow], old_keys: Mapping[str, GradeKey],
            new_keys: Mapping[str, GradeKey], old_rubric: dict, new_rubric: dict) -> list[Change]:
    """Every student of new_rows with an old row whose score (or a task's) moved, with why."""
    found = []
    for row in new_rows:
        old = old_rows.get(row.student)
        if old is None:
            continue
        moved = _moved(old.report, row.report)
        if not moved and old.report.score == row.report.score:
            continue
        why = _general(old_keys.get(row.student), new_keys.get(row.student), old_rubric, new_rubric, moved)
        why += _per_task(old.report, row.report, moved)
        if not why:
            why = ["the cases' outcomes changed (the code, the kit version and the rubric are as they were)"]
        found.append(Change(row.student, brief_of(old.report), brief_of(row.report), tuple(moved),
                            tuple(dict.fromkeys(why))))
    return found


def _moved(old: Report, new: Report) -> list[tuple[str, float, float]]:
    a = {t.id: t.score for t in old.tasks}
    b = {t.id: t.score for t in new.tasks}
    return [(t, a.get(t, 0.0), b.get(t, 0.0)) for t in dict.fromkeys([*a, *b]) if a.get(t, 0.0) != b.get(t, 0.0)]


def _general(old: GradeKey | None, new: GradeKey | None, old_rubric: dict, new_rubric: dict, moved) -> list[str]:
    why = []
    if old is not None and new is not None:
        if old.content != new.content:
            why.append("the student's code changed (a new submission)")
        if old.kit_version != new.kit_version:
            why.append(f"the kit changed ({old.kit_version} -> {new.kit_version})")
        if old.hidden_seed != new.hidden_seed:
            why.append("the hidden cases were drawn anew (another hidden seed)")
    for name, what in _SETTINGS.items():
        if old_rubric.get(name) != new_rubric.get(name):
            a, b = old_rubric.get(name), new_rubric.get(name)
            why.append(f"{what} changed" if name == "variants" else f"{what} changed ({_v(a)} -> {_v(b)})")
    old_points, new_points = old_rubric.get("points", {}), new_rubric.get("points", {})
    for task, _, _ in moved:
        if task in old_points and task in new_points and old_points[task] != new_points[task]:
            why.append(f"{task}'s points changed ({show(old_points[task])} -> {show(new_points[task])})")
    return why


def _per_task(old: Report, new: Report, moved) -> list[str]:
    why = []
    before = {t.id: t for t in old.tasks}
    after = {t.id: t for t in new.tasks}
    for task, _, _ in moved:
        a, b = before.get(task), after.get(task)
        if a is None or b is None:
            why.append(f"{task}: {'a new task' if a is None else 'no longer graded'}")
            continue
        cases_a, cases_b = _cases(a), _cases(b)
        added = [c for c in cases_b if c not in cases_a]
        removed = [c for c in cases_a if c not in cases_b]
        changed = [c for c in cases_b if c in cases_a and cases_a[c] != cases_b[c]]
        if added:
            why.append(f"{task}: {len(added)} case(s) added ({_few(added)})")
        if removed:
            why.append(f"{task}: {len(removed)} case(s) removed ({_few(removed)})")
        if changed:
            why.append(f"{task}: {len(changed)} case(s) now {_outcomes(cases_a, cases_b, changed)} ({_few(changed)})")
        named_a, named_b = [d.id for d in a.diagnosis], [d.id for d in b.diagnosis]
        if named_a != named_b:
            why.append(f"{task}: the mistake named changed ({', '.join(named_a) or 'none'} -> "
                       f"{', '.join(named_b) or 'none'})")
    return why


def _cases(task: TaskResult) -> dict[str, str]:
    return {c.id: c.status for c in task.cases}


def _outcomes(a: dict, b: dict, ids: list[str]) -> str:
    pairs = sorted({f"{a[c]} -> {b[c]}" for c in ids})
    return ", ".join(pairs)


def _few(ids: list[str], n: int = 3) -> str:
    return ", ".join(ids[:n]) + (f" and {len(ids) - n} more" if len(ids) > n else "")


def _v(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def render_csv(found: Sequence[Change]) -> str:
    from autograder.report.csv_report import guard

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for change in found:
        writer.writerow([guard(c) for c in change.cells()])
    return out.getvalue()


def render_md(found: Sequence[Change], compared: int) -> str:
    lines = ["# What the regrade changed", "",
             f"{compared} student(s) of the last class graded again; {len(found)} score(s) changed.", ""]
    if found:
        lines += ["| student | old | new | tasks | why |", "|---|---|---|---|---|"]
        for change in found:
            cells = [inert(c).replace("|", "\\|") for c in change.cells()]
            lines.append(f"| {cells[0]} | {cells[1]} / {cells[3]} | {cells[2]} / {cells[3]} | {cells[4]} | {cells[5]} |")
    return "\n".join(lines) + "\n"


def write_changes(out_dir, found: Sequence[Change], compared: int) -> None:
    write_text_atomic(out_dir / CSV_NAME, render_csv(found))
    write_text_atomic(out_dir / MD_NAME, render_md(found, compared))


def changed_students(out_dir) -> set[str] | None:
    """The students whose score the last regrade changed (OUT/regrade-changes.csv), None with no such file."""
    path = out_dir / CSV_NAME
    if not path.is_file():
        return None
    from autograder.report.csv_report import unguard
    rows = csv.DictReader(path.read_text(encoding="utf-8").splitlines())
    return {unguard(r["student"]) for r in rows}


def say_changes(out_dir: Path, store: Store, last: LastClass | None, rows: Sequence[BatchRow],
                keys: dict[str, GradeKey], rubric: Rubric, before: Container[str], graded: int) -> int | None:
    """OUT/regrade-changes.csv/.md when this run graded again students of the last class: how many changed.
    before: the students whose rows a --regrade replaced (Store.keep_previous kept them aside)."""
    if last is None or not graded:
        return None
    def graded_again(student: str) -> bool:
        return student in last.keys and (student in before or keys.get(student) != last.keys[student])

    # from the keys: only those rows are read (class_rows.py), not the class's
    again = list(rows.only([s for s in rows.students if graded_again(s)])) if isinstance(rows, StoredRows) \
        else [r for r in rows if graded_again(r.student)]
    if not again:
        return None
    # the rows hold briefs: each student's full reports are read from the store one at a time
    old = _Reading(lambda s: store.previous(s) if s in before else store.get(s, last.keys[s]))
    new = (store.get(r.student, keys[r.student]) or r for r in again)
    found = changes(old, new, last.keys, keys, last.rubric, rubric_settings(rubric))
    write_changes(out_dir, found, len(again))
    return len(found)


class _Reading:
    """Rows by student, read when asked (None: not stored)."""

    def __init__(self, read: Callable[[str], BatchRow | None]):
        self.read = read

    def get(self, student: str) -> BatchRow | None:
        return self.read(student)
