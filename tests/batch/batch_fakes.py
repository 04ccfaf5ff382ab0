"""Fake submissions and a fake grader for the batch tests.

A fake submission is a folder with a plan.json saying what grading it does:
return a report (failing some tasks), raise, kill its worker, or press Ctrl-C
on the parent once. Every call is logged to a file, so a test can count which
submissions were graded. Top-level functions only: spawn workers import them.
"""
from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from autograder.batch.entry import Entry
from autograder.config import Rubric
from autograder.report.model import CaseGraph, CaseResult, Diagnosis, GraphNode, Report, TaskResult
from autograder.tasks import TASKS


def submission(root: Path, folder: str, *, do: str = "ok", fail: tuple[str, ...] = (), log: Path | None = None,
               **extra) -> Path:
    path = Path(root) / folder
    path.mkdir(parents=True, exist_ok=True)
    plan = {"do": do, "fail": list(fail), "log": str(log) if log else None, **extra}
    (path / "plan.json").write_text(json.dumps(plan))
    (path / "micrograd").mkdir(exist_ok=True)
    (path / "micrograd" / "engine.py").write_text(f"# {folder}\n")
    return path


def entry(student: str, path: Path, *, late: bool = False, source: str = "folder") -> Entry:
    return Entry(student, Path(path), source, late, Path(path).name)


def calls(log: Path) -> list[str]:
    """The students graded so far, in order, one per call."""
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def grade_fake(path: Path, *, rubric: Rubric, name: str) -> Report:
    plan = json.loads((Path(path) / "plan.json").read_text())
    if plan["log"]:
        with open(plan["log"], "a", encoding="utf-8") as f:
            f.write(name + "\n")
    if plan["do"] == "raise":
        raise RuntimeError(plan.get("message", "boom"))
    if plan["do"] == "exit":
        os._exit(3)
    if plan["do"] == "sigint_once" and not Path(plan["flag"]).exists():
        Path(plan["flag"]).touch()
        os.kill(grading_process(), signal.SIGINT)
        time.sleep(5)  # the parent stops this worker long before
    for target, text in plan.get("overwrite", {}).items():  # as a student's code could, unsandboxed
        end = time.monotonic() + 30  # once the parent has written it: it stores rows while workers grade
        while not Path(target).exists() and time.monotonic() < end:
            time.sleep(0.02)
        Path(target).write_text(text, encoding="utf-8")
    if plan["do"] == "not_a_report":
        return "a string"  # type: ignore[return-value]
    return fake_report(name, rubric, fail=tuple(plan["fail"]), message=plan.get("message", ""))


def grading_process() -> int:
    """The worker's grading process: its parent, or its parent's where that is the pool's fork server."""
    parent = os.getppid()
    try:
        if b"autograder.batch.fork_server" in Path(f"/proc/{parent}/cmdline").read_bytes():
            return int(Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return parent


def fake_report(name: str, rubric: Rubric, *, fail: tuple[str, ...] = (), message: str = "") -> Report:
    """Every task with one public and one hidden case; the tasks in `fail` fail both, their public
    case with a graph, and the task with a likely mistake (as a real failing report has)."""
    tasks = []
    for task, title in TASKS.items():
        ok = task not in fail
        status = "passed" if ok else "failed"
        graph = None if ok else CaseGraph((GraphNode("a", 2.0, grad=1.0, expected=2.0, wrong_grad=True),
                                          GraphNode("out", 4.0, "*", ("a",), 1.0, 1.0)))
        cases = (
            CaseResult(f"{task}-public", status, "public", "" if ok else message or "got 1, expected 2",
                       f"{task}: a public case", () if ok else ("got: 1", "expected: 2"), graph=graph),
            CaseResult(f"{task}-hidden", status, "hidden", "" if ok else "a hidden case gave a different result"),
        )
        points = float(rubric.points[task])
        found = () if ok else (Diagnosis("overwrites_grad", "`x.grad = ...` overwrites: use `+=`."),)
        tasks.append(TaskResult(task, title, points if ok else 0.0, points, cases, found))
    score = sum(t.score for t in tasks)
    return Report(name, score, sum(t.max_score for t in tasks), tuple(tasks), sandbox="fake", kit_version="test")
