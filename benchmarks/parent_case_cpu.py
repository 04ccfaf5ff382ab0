"""The grading process's CPU per case, measured in this process, and what the system calls of a case take of it.

    .venv/bin/python benchmarks/parent_case_cpu.py [PATH] [--runs N]

run_cases on the solutions (or PATH), every public and hidden case, N times, and N times with no case (the
child's start and the student's import); per case: the median of the first minus the median of the second,
over the number of cases (the header's size grows with them: it counts here, as in cpu_split.py). Then the
same runs again with the parent's three system calls a case (the wait in poll, the write of the next case,
the read of the result) timed on their own (time.process_time around each: a little of the clock's own
cost shows up as Python). CPU time, not wall clock; the medians of a few runs of this on a shared machine.

cpu_split.py says the same for the grading process (os.times, coarser) and adds the sandboxed side.
To compare two versions of the kit on a shared machine, run this from a worktree of each, in turns
(A B A B A B), and compare the medians: the machine's load moves both alike.
"""
from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.grading import limits_for, select_cases  # noqa: E402
from autograder.runner import conversation  # noqa: E402
from autograder.runner.session import run_cases  # noqa: E402

SPENT = {"poll": 0.0, "write": 0.0, "read": 0.0}


class TimedPoll:
    """A select.poll whose waits are timed."""

    def __init__(self):
        self.inner = select.poll()
        self.register, self.unregister = self.inner.register, self.inner.unregister

    def poll(self, timeout):
        before = time.process_time()
        try:
            return self.inner.poll(timeout)
        finally:
            SPENT["poll"] += time.process_time() - before


def timed(name: str, call):
    def wrapper(*args):
        before = time.process_time()
        try:
            return call(*args)
        finally:
            SPENT[name] += time.process_time() - before
    return wrapper


def time_system_calls() -> None:
    """conversation.py's poll, os.write and os.read (the child's pipes), timed (that module's own names only)."""
    names = {name: getattr(select, name) for name in dir(select) if not name.startswith("_")}
    conversation.select = type("TimedSelect", (), {**names, "poll": staticmethod(TimedPoll)})
    names = {name: getattr(os, name) for name in dir(os) if not name.startswith("_")}
    conversation.os = type("TimedOs", (), {**names, "write": staticmethod(timed("write", os.write)),
                                           "read": staticmethod(timed("read", os.read))})


def medians(path: Path, runs: int) -> tuple[dict, dict, int]:
    """For a run with every case and one with none: {"cpu": its CPU seconds (median of `runs`), and the
    system calls' (mean)}; and how many cases."""
    from autograder.submission.load import prepare
    rubric = load_rubric(KIT / "assignment.toml")
    prepared = prepare(path, Path(tempfile.mkdtemp()) / "submission")
    options = dict(limits=limits_for(rubric), files=prepared.files, forbidden=rubric.forbidden_imports,
                   allowed=rubric.allowed_imports)
    every = select_cases(rubric, include_hidden=True)
    for _ in range(3):  # the goldens, the zygote, the caches: once
        run_cases(prepared.root, every, **options)
    spent = {}
    for mode, cases in (("none", []), ("every", every)):
        samples, calls = [], dict(SPENT)
        for _ in range(runs):
            before = time.process_time()
            run_cases(prepared.root, cases, **options)
            samples.append(time.process_time() - before)
        spent[mode] = {"cpu": statistics.median(samples), **{k: (SPENT[k] - calls[k]) / runs for k in SPENT}}
    return spent["every"], spent["none"], len(every)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    every, none, count = medians(args.path.resolve(), args.runs)
    print(f"the grading process, in this process ({count} cases, medians of {args.runs} runs):")
    print(f"  a run with no case (start, import)  {none['cpu'] * 1000:8.2f} ms")
    print(f"  a case                              {(every['cpu'] - none['cpu']) / count * 1e6:8.1f} us")
    time_system_calls()
    every, none, count = medians(args.path.resolve(), args.runs)
    print(f"  again, its system calls timed: a case {(every['cpu'] - none['cpu']) / count * 1e6:.1f} us, of it in "
          + ", ".join(f"{k} {(every[k] - none[k]) / count * 1e6:.1f} us" for k in SPENT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
