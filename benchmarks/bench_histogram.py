"""What the class's histogram costs a batch: one drawing in a fresh process, its imports included.

    .venv/bin/python benchmarks/bench_histogram.py [--runs N]

Runs `python -c` drawing a class of 200's histogram (report/histogram.py: Pillow's import, its font, the
drawing, the PNG) --runs times (default 21), each a new interpreter as a class's grading process is at its end
(the kit's own modules the drawing needs, imported there too, are counted), and as many runs of the same
interpreter importing autograder.report.numbers alone (what the grading process has imported long before):
prints the medians of each run's CPU (user + sys) and their difference, the drawing's own cost. Then the
drawing again in this process (the imports done): what a second class would cost. The load average before and
after is printed: the machine may be shared.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = {"histogram": {"edges": [i * 2.0 for i in range(11)], "counts": [3, 0, 1, 2, 5, 9, 17, 40, 73, 50]},
           "max_score": 20, "submissions": 200}
DRAW = f"from autograder.report.histogram import histogram_png\nhistogram_png({SUMMARY!r})"
BASE = "import autograder.report.numbers"


def cpu_of(code: str) -> float:
    """The CPU (user + sys) of one `python -c code`, run from the kit's root."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    cpu_of(DRAW)  # the bytecode written, the files in the page cache
    drawn, base = [], []
    for _ in range(args.runs):  # in turns: the machine's load falls on both alike
        drawn.append(cpu_of(DRAW))
        base.append(cpu_of(BASE))
    sys.path.insert(0, str(ROOT))
    from autograder.report.histogram import histogram_png

    histogram_png(SUMMARY)
    again = []
    for _ in range(args.runs):
        start = time.process_time()
        histogram_png(SUMMARY)
        again.append(time.process_time() - start)
    d, b = statistics.median(drawn), statistics.median(base)
    print(f"a fresh process drawing the histogram of a class of 200: {d * 1000:.1f} ms of CPU; one importing "
          f"autograder.report.numbers alone: {b * 1000:.1f} ms; the drawing with its imports: {(d - b) * 1000:.1f} ms "
          f"(medians of {args.runs} in turns)")
    print(f"the drawing again in the same process: {statistics.median(again) * 1000:.1f} ms of CPU")
    print(f"load average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
