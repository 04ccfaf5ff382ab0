"""How fast a student's check and one submission's grading are.

    .venv/bin/python benchmarks/bench_grading.py [--runs N]

(1) `autograder check solutions`, end to end, as a student runs it (a new
process each time: start-up, public cases, report); goal <= 1 s wall.
(2) grade_path(solutions, public + hidden cases) in one process with the goldens
cached; goal <= 0.5 s. Medians of --runs runs (the goldens are computed once
beforehand, into a private cache, and not timed).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))


def _median_time(fn, runs: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)

    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path, select_cases

    with tempfile.TemporaryDirectory() as cache:
        os.environ["AUTOGRADER_CACHE"] = cache
        rubric = load_rubric(KIT / "assignment.toml")
        store = GoldenStore(cache_dir=Path(cache))
        for hidden in (False, True):  # warm the cache: goldens are computed once per kit version
            store.goldens(select_cases(rubric, include_hidden=hidden), activation=rubric.activation)

        def check():
            done = subprocess.run([sys.executable, "-m", "autograder", "check", "solutions"], cwd=KIT,
                                  capture_output=True, env=os.environ)
            assert done.returncode == 0, done.stderr

        def grade():
            report = grade_path(KIT / "solutions", rubric=rubric, include_hidden=True, store=store)
            assert report.score == report.max_score, report

        check_median, check_all = _median_time(check, args.runs)
        grade_median, grade_all = _median_time(grade, args.runs)
        cases = len(select_cases(rubric, include_hidden=True))

    print(f"sandbox level: {grade_path(KIT / 'solutions', rubric=rubric, include_hidden=False).sandbox}")
    print(f"{'measure':45} {'median':>8} {'min':>8} {'max':>8}  goal")
    print(f"{'autograder check solutions (end to end)':45} {check_median:8.3f} {min(check_all):8.3f} {max(check_all):8.3f}  <= 1.0 s")
    print(f"{f'grade_path, public + hidden ({cases} cases)':45} {grade_median:8.3f} {min(grade_all):8.3f} {max(grade_all):8.3f}  <= 0.5 s")
    ok = check_median <= 1.0 and grade_median <= 0.5
    print("goals met" if ok else "GOALS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
