"""A named mistake proven by repair (issue 30): the fix it implies, made on a copy of the student's own code,
and that task's cases run on the copy in the sandbox, as any child.

For each task the diagnosis names mistakes in, the repairs of those mistakes (apply.py: one LibCST
transformer per mistake, in the room of its kind of task: ops, ops_wiring, backward, nn, nn_params, train,
train_loop) edit the text of a copy of the submission's normalised folder, keeping the student's names,
comments and layout; the task's counted cases then run on the copy, in one more child. What follows:
- every case passes: the mistakes are proven; the student is shown where, the rule or the fix (ladder.py);
- a repair found its spot, the cases ran and one still fails: the name is withdrawn (the observations fit
  the mistake, but mending it does not mend the task: a wrong name is worse than none);
- no spot found (a style the repairs don't know), no libcst, or the run did not finish (a timeout): the
  mistake stays named as likely, unproven, with no line and no fix.
The grading process only parses and prints text here; the student's code runs only in the child. A score
never changes.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable

from autograder.diagnosis.repair.ladder import LEVELS, Proof, shown
from autograder.report.model import Place, Report, TaskResult
from autograder.scoring.compare import compare

__all__ = ["LEVELS", "prove"]


def prove(report: Report, *, root: Path, files: dict[str, str], cases: list, goldens: dict[str, dict],
          rel_tol: float, abs_tol: float, level: str, run: Callable, work: Path) -> Report:
    """The report with each named mistake proven, left likely or withdrawn, and shown as `level` says.
    root: the submission's normalised folder (holding micrograd/); files: module -> the student's file name;
    run(root, cases) -> outcomes by case id, in the sandbox."""
    tasks = tuple(_task(t, root, files, cases, goldens, rel_tol, abs_tol, level, run, work) if t.diagnosis else t
                  for t in report.tasks)
    return replace(report, tasks=tasks)


def _task(task: TaskResult, root, files, cases, goldens, rel_tol, abs_tol, level, run, work) -> TaskResult:
    ids = tuple(d.id for d in task.diagnosis)
    counted = {c.id for c in task.cases if c.counted}
    own = [c for c in cases if c.task == task.id and c.id in counted]
    package = root / "micrograd"
    try:
        from autograder.diagnosis.repair.apply import repaired
        texts, edits = repaired(package, task.id, ids)
    except ImportError:  # no libcst where the kit runs: nothing proven, as before
        texts, edits = {}, {}
    except (RecursionError, SyntaxError, ValueError):  # code nested past what LibCST can walk: nothing proven
        texts, edits = {}, {}
    proofs: dict[str, Proof] = {}
    withdrawn = False
    if own and texts and any(edits.values()):
        copy = work / f"repair-{task.id}"
        linked_copy(root, copy)
        for rel, text in texts.items():
            _write(copy / "micrograd", rel, text, (package / rel).read_text(encoding="utf-8"))
        outcomes = run(copy, own)
        passed = all(_passes(outcomes.get(c.id), goldens[c.id], rel_tol, abs_tol) for c in own)
        finished = all(outcomes.get(c.id) is not None and outcomes[c.id].status in ("ok", "error", "missing")
                       for c in own)
        if passed:
            proofs = {m: _proof(package, files, e, len(own), len(ids) > 1) for m, e in edits.items() if e}
        withdrawn = not passed and finished and all(edits.get(m) for m in ids)
    if withdrawn:
        return replace(task, diagnosis=())
    found = (shown(d, proofs.get(d.id), task.id, level) for d in task.diagnosis)
    return replace(task, diagnosis=tuple(d for d in found if d is not None))


def _passes(outcome, golden: dict, rel_tol: float, abs_tol: float) -> bool:
    return outcome is not None and outcome.status == "ok" and not compare(outcome.obs, golden, rel_tol=rel_tol,
                                                                          abs_tol=abs_tol)


def linked_copy(root: Path, copy: Path) -> None:
    """The prepared folder again at `copy` (its __pycache__ left out), each file a hard link to the prepared one
    where the filesystem allows (a copy where not): a link costs one system call, a copy with its metadata about
    ten. A repaired file is then a new file in the link's place (_replace), never written through it. The child
    that runs the copy gets it as it got the prepared folder itself (staged, or bound read-only): no file the
    first run did not already show it."""
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"), copy_function=_link_or_copy)


def _link_or_copy(source: str, target: str) -> str:
    try:
        os.link(source, target)
    except OSError:  # another filesystem, or one without hard links
        shutil.copy2(source, target)
    return target


def _write(package: Path, rel: str, text: str, original: str) -> None:
    """The repaired file in the copy; a notebook's cell map moved with the lines a repair added. Each a new file
    (the copy's own may be a link to the prepared one: linked_copy)."""
    from autograder.diagnosis.repair import cells
    target = package / rel
    _replace(target, text)
    table = target.with_suffix(cells.SUFFIX)
    if table.is_file():
        _replace(table, cells.shifted(cells.read(table.read_text(encoding="utf-8")), original, text))


def _replace(path: Path, text: str) -> None:
    """`text` in a new file at `path`, with the mode of the one it replaces (a hard link to another name of the
    grader's: writing through it would change that one too)."""
    mode = path.stat().st_mode & 0o7777
    path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    os.fchmod(fd, mode)  # as it was, whatever the umask
    with open(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def _proof(package: Path, files: dict[str, str], edits: list, cases: int, together: bool) -> Proof:
    from autograder.diagnosis.repair import cells
    edit = edits[0]
    module = ".".join(Path(edit.file).with_suffix("").parts)
    name = files.get(module, f"micrograd/{edit.file}")
    table = (package / edit.file).with_suffix(cells.SUFFIX)
    lines = tuple(line for e in edits if e.file == edit.file for line in e.lines)
    where = Place(name, lines[0])
    if table.is_file():  # a notebook: the cell, and the line within it
        rows = cells.read(table.read_text(encoding="utf-8"))
        found = [cells.cell_of(rows, line) for line in lines]
        if found[0] is not None:
            where = Place(name, found[0][1], found[0][0])
            lines = tuple(f[1] for f in found if f is not None and f[0] == found[0][0])
    return Proof(where, lines, edit.change, edit.now, cases, together)
