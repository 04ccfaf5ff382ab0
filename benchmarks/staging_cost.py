"""What a submission's folders cost the grading process, in the temporary folder and in memory (/dev/shm).

    .venv/bin/python benchmarks/staging_cost.py [PATH] [--count N] [--repeats R]

For PATH (default: the solutions), N times each, R rounds in turns, in the temporary folder and in
scratch.memory() (where it offers one): a zygote's staging copy made and removed (levels/zygote/level.stage,
then its removal, as each child's launch and kill do), and a submission prepared in a scratch folder of its
own and removed (as grading.py's grade_one does). Prints CPU (process time) and wall clock a submission,
medians, and the load average: the cost of a disk's filesystem grows with what the machine's other work does
to it (its journal), so the load is part of the figure.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder import scratch  # noqa: E402
from autograder.runner.levels.zygote.level import stage  # noqa: E402
from autograder.submission.load import prepare  # noqa: E402


def staged(root: Path, where: str, count: int) -> tuple[float, float]:
    folder, fd = scratch.make("backprop-staging-", 0o755, where)
    try:
        return _timed(count, lambda i: (stage(str(root), os.path.join(folder, f"s{i}")),
                                        shutil.rmtree(os.path.join(folder, f"s{i}"))))
    finally:
        scratch.remove(folder, fd)


def prepared(path: Path, where: str, count: int) -> tuple[float, float]:
    def one(_i):
        with scratch.scratch("autograder-", where=where) as work:
            prepare(path, Path(work) / "submission")
    return _timed(count, one)


def _timed(count: int, work) -> tuple[float, float]:
    """(CPU, wall) ms a call."""
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(count):
        work(i)
    return (time.process_time() - cpu) / count * 1000, (time.perf_counter() - wall) / count * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    places = {"temporary folder": tempfile.gettempdir()}
    if scratch.memory():
        places["memory"] = scratch.memory()
    found: dict[tuple[str, str], list[tuple[float, float]]] = {}
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        root = prepare(args.path, Path(tmp) / "submission").root
        for _ in range(args.repeats):
            for label, where in places.items():
                found.setdefault(("staging copy made and removed", label), []).append(staged(root, where, args.count))
                found.setdefault(("submission prepared and removed", label), []).append(
                    prepared(args.path, where, args.count))
            loads.append(os.getloadavg()[0])
    print(f"{args.path.name}: ms a submission, medians of {args.repeats} rounds of {args.count}:")
    for (what, label), values in found.items():
        cpu = statistics.median(v[0] for v in values)
        wall = statistics.median(v[1] for v in values)
        print(f"  {what:34} {label:17} ({places[label]:10}) CPU {cpu:6.3f}   wall {wall:6.3f}")
    print(f"load average (1 min) over the runs: {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
