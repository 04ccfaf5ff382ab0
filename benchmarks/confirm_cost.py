"""Where an endless submission's CPU goes: its first pass (a batch worker's, which guesses) and its confirmation.

    .venv/bin/python benchmarks/confirm_cost.py [--repeats R]

Each of bench_batch's endless kinds (and a correct submission, for the baseline) is graded by a fresh
`python` process, warm (the kit imported, a correct submission graded first, untimed), once as a pool worker
grades it (runner/confirm.DEFER), with a confirmer on a CPU of its own (`set_spare_cpu(True)`: the guess at the
case's look) and without (the guess after one_time_work), and once as the confirmer does (CONFIRMING: no early
stop, each case timed by its CPU). The figure is the CPU of the whole process tree (a cgroup, where the
benchmark may make one: tree_cpu.py) over the same process's warm-up alone, the median of R runs. Issue 29's
class 3 puts a floor under a confirmation: the looping case's whole case_timeout of CPU.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_batch  # noqa: E402
from tree_cpu import run_counted  # noqa: E402

ONE = r'''
import json, sys, time
from pathlib import Path
from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.runner import confirm
rubric_file, warm, mode, spare, target = sys.argv[1:6]
rubric = load_rubric(Path(rubric_file))
grade_path(Path(warm), rubric=rubric, include_hidden=True, name="warm")
if mode != "none":
    confirm.set_mode(mode)
    confirm.set_spare_cpu(spare == "1")
    report = grade_path(Path(target), rubric=rubric, include_hidden=True, name="x")
    print(json.dumps({"score": report.score}))
'''
WAYS = (("first pass, confirmer on a CPU of its own", "defer", "1"), ("first pass, confirmer at idle priority",
        "defer", "0"), ("confirmation", "confirming", "0"))


def cpu_of(env: dict, warm: Path, mode: str, spare: str, target: Path) -> tuple[float, dict]:
    argv = [sys.executable, "-c", ONE, str(bench_batch.RUBRIC_FILE), str(warm), mode, spare, str(target)]
    _, cpu, _, done = run_counted(argv, cwd=bench_batch.KIT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"confirm_cost: grading failed:\n{done.stderr[-2000:]}")
    return cpu, json.loads(done.stdout.strip().splitlines()[-1]) if mode != "none" else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each (default 3): the median is printed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="confirm-cost-") as tmp:
        tmp = Path(tmp)
        env = {**os.environ, "AUTOGRADER_CACHE": str(tmp / "cache")}
        env.pop("AUTOGRADER_HIDDEN_SEED", None)
        warm = tmp / "warm"
        shutil.copytree(bench_batch.corpus.SOLUTIONS, warm / "micrograd", ignore=shutil.ignore_patterns("__pycache__"))
        solutions = bench_batch.solution_texts()
        subs = [(detail, bench_batch.write_submission(bench_batch._edit(solutions, file, old, new), "package", tmp,
                                                      f"endless{i}"))
                for i, (detail, file, old, new) in enumerate(bench_batch.ENDLESS)]
        subs.append(("correct (the twin an endless one is measured against)",
                     bench_batch.write_submission(solutions, "package", tmp, "correct")))
        print(f"machine: {os.cpu_count()} cores, load average (1/5 min) {bench_batch.load()} before the runs")
        cpu_of(env, warm, "none", "0", warm)  # the goldens into the cache, untimed
        base = statistics.median(cpu_of(env, warm, "none", "0", warm)[0] for _ in range(args.repeats))
        print(f"CPU of the process tree over a warm process's own ({base:.2f} s), medians of {args.repeats} runs:")
        for detail, path in subs:
            figures = []
            for label, mode, spare in WAYS:
                runs = [cpu_of(env, warm, mode, spare, path) for _ in range(args.repeats)]
                figures.append(f"{label} {statistics.median(c for c, _ in runs) - base:.2f} s")
            print(f"  {detail}: " + "; ".join(figures) + f" (score {runs[0][1]['score']:g})")
        print(f"load average after: {bench_batch.load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
