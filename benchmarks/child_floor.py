"""The kit's child's side of one submission against the floor's whole cost for it, every process counted.

    .venv/bin/python benchmarks/child_floor.py [PATH] [--runs N] [--repeats R]

The child's side: run_cases on PATH (default: the solutions) with every public and hidden case, N times in
one process after a first run (the zygote started), less the same process with no timed run, over N: the
grading process's share (staging, the conversation, the reap), the zygote's, the sandboxed children's and
bwrap's, counted in a cgroup (tree_cpu.run_counted: also what no process reaps). The same with no case
gives the child's start and the student's import alone. The floor (benchmarks/floor.py, root only): PATH
graded as N+1 submissions less as 1, over N: its driver's preparing and conversation, its zygote's forks.
R runs of each in turns; medians, ms of CPU a submission. The load average is printed: the machine may
be shared.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "benchmarks"))

from tree_cpu import run_counted  # noqa: E402

# run in a fresh process from the kit's root: argv = runs, "all" or "none", the submission's path
GRADE = r"""
import sys, tempfile
from pathlib import Path
sys.path.insert(0, ".")
from autograder.config import load_rubric
from autograder.grading import limits_for, select_cases
from autograder.runner.session import run_cases
from autograder.submission.load import prepare
rubric = load_rubric(Path("assignment.toml"))
cases = select_cases(rubric, include_hidden=True) if sys.argv[2] == "all" else []
with tempfile.TemporaryDirectory() as tmp:
    prepared = prepare(Path(sys.argv[3]), Path(tmp) / "submission")
    options = dict(limits=limits_for(rubric), files=prepared.files, forbidden=rubric.forbidden_imports,
                   allowed=rubric.allowed_imports)
    for _ in range(1 + int(sys.argv[1])):
        run_cases(prepared.root, cases, **options)
"""


def _counted(argv: list[str]) -> float:
    _wall, cpu, _how, done = run_counted(argv, cwd=KIT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"child_floor: {' '.join(argv[:3])} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return cpu


def kit(path: Path, runs: int, which: str) -> float:
    """ms of CPU a submission: the child's side of run_cases (which: "all" cases, or "none")."""
    argv = [sys.executable, "-c", GRADE]
    return (_counted(argv + [str(runs), which, str(path)]) - _counted(argv + ["0", which, str(path)])) / runs * 1000


def floor(path: Path, runs: int, tmp: Path) -> float:
    """ms of CPU a submission: floor.py grading `path` runs+1 times less once."""
    classes = {}
    for count in (1, runs + 1):
        folder = classes[count] = tmp / f"class-{count}"
        for i in range(count):
            target = folder / f"s{i:04d}"
            (shutil.copytree if path.is_dir() else shutil.copy)(path, target if path.is_dir() else f"{target}.py")
    argv = [sys.executable, str(KIT / "benchmarks" / "floor.py")]
    return (_counted(argv + [str(classes[runs + 1])]) - _counted(argv + [str(classes[1])])) / runs * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--runs", type=int, default=60, help="submissions a measurement grades (default 60)")
    parser.add_argument("--repeats", type=int, default=3, help="measurements of each, in turns (default 3)")
    args = parser.parse_args(argv)
    found: dict[str, list[float]] = {"child's side, every case": [], "child's side, start + import only": []}
    with_floor = os.geteuid() == 0
    if with_floor:
        found["floor, all of it (preparing too)"] = []
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="child-floor-") as tmp:
        for _ in range(args.repeats):
            found["child's side, every case"].append(kit(args.path, args.runs, "all"))
            found["child's side, start + import only"].append(kit(args.path, args.runs, "none"))
            if with_floor:
                shutil.rmtree(Path(tmp) / "f", ignore_errors=True)
                (Path(tmp) / "f").mkdir()
                found["floor, all of it (preparing too)"].append(floor(args.path, args.runs, Path(tmp) / "f"))
            loads.append(os.getloadavg()[0])
    print(f"{args.path.name}: ms of CPU a submission, every process counted (medians of {args.repeats}, "
          f"{args.runs} submissions each):")
    for label, values in found.items():
        print(f"  {label:38} {statistics.median(values):6.2f}   ({', '.join(f'{v:.2f}' for v in values)})")
    if not with_floor:
        print("  (the floor needs root: not measured)")
    print(f"load average (1 min) over the runs: {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
