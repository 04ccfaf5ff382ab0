"""A worker's wall clock a submission: the solutions graded N times, one after another, in this process.

    python benchmarks/worker_wall.py [--count 60]

What a batch's worker does per submission (grading.grade_path: prepare, the child's run, scoring), in sequence,
so that whatever a submission leaves to finish while the next is prepared and scored (the child's namespace
reaped by the zygote) shows as wall clock saved. Prints the median and the mean wall clock a submission, and
this process's own CPU a submission (not its children's or the zygote's: benchmarks/child_costs.py counts
those). Run it in turns in two worktrees to compare them; the load average is printed with it.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.goldens import GoldenStore  # noqa: E402
from autograder.grading import grade_path  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60, help="gradings of the solutions (default 60)")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    rubric, store = load_rubric(KIT / "assignment.toml"), GoldenStore()
    with tempfile.TemporaryDirectory(prefix="worker-wall-") as tmp:
        root = Path(tmp) / "student"
        shutil.copytree(KIT / "solutions" / "micrograd", root / "micrograd",
                        ignore=shutil.ignore_patterns("__pycache__"))
        grade_path(root, rubric=rubric, include_hidden=True, store=store)  # warm: the zygote, the goldens
        walls = []
        cpu, start = time.process_time(), time.perf_counter()
        for _ in range(args.count):
            began = time.perf_counter()
            grade_path(root, rubric=rubric, include_hidden=True, store=store)
            walls.append(time.perf_counter() - began)
        total, cpu = time.perf_counter() - start, time.process_time() - cpu
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{args.count} gradings: wall a submission, median {statistics.median(walls) * 1e3:.1f} ms, "
          f"mean {total / args.count * 1e3:.1f} ms; this process's CPU {cpu / args.count * 1e3:.1f} ms; load {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
