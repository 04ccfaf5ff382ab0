"""What starting a batch's workers costs: forked from the pool's fork server (batch/fork_server.py) or spawned.

    .venv/bin/python benchmarks/worker_start.py [--runs 5] [--workers 2] [--jobs 4]

A process grades `jobs` fake submissions with `workers` workers (grade_parallel, as `autograder grade` does, the
initializer's warming included); each job imports what a proof of a named mistake needs (LibCST and the repairs)
and grades nothing: what is counted is the start of the workers, the server and the pool. The two ways in turns,
`runs` times each, CPU counted over every process of the run (tree_cpu.run_counted: a cgroup where one can be
made); medians.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's kit, not the one installed

KIT = Path(__file__).resolve().parents[1]


def grade_importing(path: Path, *, rubric, name: str):
    """A job that needs what a proof needs, and grades nothing."""
    import autograder.diagnosis.repair.apply  # noqa: F401
    from autograder.report.model import Report

    return Report(submission=name, score=0.0, max_score=0.0)


def _one(workers: int, jobs: int) -> None:
    from autograder.batch.pool import Job, grade_parallel
    from autograder.config import load_rubric

    rubric = load_rubric(KIT / "assignment.toml")
    folder = Path(os.environ["WORKER_START_DIR"])
    todo = [Job(f"s{i}", str(folder)) for i in range(jobs)]
    grade_parallel(todo, workers=workers, grade_one=grade_importing, rubric=rubric, on_done=lambda *a: None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        _one(args.workers, args.jobs)
        return 0
    import tempfile

    from tree_cpu import run_counted

    cpus: dict[str, list[float]] = {"fork server": [], "spawn": []}
    walls: dict[str, list[float]] = {k: [] for k in cpus}
    how = ""
    with tempfile.TemporaryDirectory(prefix="worker-start-") as tmp:
        for _ in range(args.runs):
            for way in cpus:
                env = {**os.environ, "WORKER_START_DIR": tmp, "AUTOGRADER_WORKER_START": way.split()[0]}
                argv_ = [sys.executable, __file__, "--one", "--workers", str(args.workers), "--jobs", str(args.jobs)]
                wall, cpu, how, done = run_counted(argv_, cwd=KIT, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    raise SystemExit(f"worker_start: exited {done.returncode}:\n{done.stderr[-2000:]}")
                cpus[way].append(cpu)
                walls[way].append(wall)
    print(f"{args.workers} workers, {args.jobs} jobs each importing LibCST and the repairs, {args.runs} runs each "
          f"in turns, CPU of every process ({how}), medians (load {os.getloadavg()[0]:.2f} after):")
    for way in cpus:
        print(f"  {way:12s} {statistics.median(cpus[way]):.3f} s CPU  {statistics.median(walls[way]):.3f} s wall   "
              f"CPUs {' '.join(f'{c:.2f}' for c in cpus[way])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
