"""One submission's CPU, split between the grading process and the sandboxed side, counted in a cgroup.

    .venv/bin/python benchmarks/cpu_split.py [PATH] [--runs N] [--json FILE]

For the solutions (or PATH), with the sandbox level this machine uses: run_cases N times with no case
(the child's start and the import of the student's modules: "start") and N times with every public and
hidden case ("all"), each mode in a process of its own inside a cgroup of its own
(benchmarks/tree_cpu.py), once with 2 runs and once with 2 + N, so that what a process pays once (its
interpreter, the kit's imports, a zygote's start) cancels out. Prints, per run, in ms of CPU:

  the grading process (os.times of the process that calls run_cases),
  the sandboxed side (the cgroup's count minus the grading process's: the zygote, its forks, bwrap),

for the start, and for the cases alone ("all" minus "start"), with the cost a case. CPU time, not wall
clock: the machine may be shared (its noise then shows as a spread between runs; take the median of a few).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "benchmarks"))

from tree_cpu import run_counted  # noqa: E402

INNER = r"""
import json, os, sys, tempfile
from pathlib import Path
sys.path.insert(0, {kit!r})
from autograder.config import load_rubric
from autograder.grading import limits_for, select_cases
from autograder.runner.session import run_cases
from autograder.submission.load import prepare
mode, runs = sys.argv[1], int(sys.argv[2])
rubric = load_rubric(Path({kit!r}) / "assignment.toml")
cases = select_cases(rubric, include_hidden=True) if mode == "all" else []
prepared = prepare(Path({path!r}), Path(tempfile.mkdtemp()) / "submission")
options = dict(limits=limits_for(rubric), files=prepared.files, forbidden=rubric.forbidden_imports,
               allowed=rubric.allowed_imports)
before = os.times()
for _ in range(runs):
    result = run_cases(prepared.root, cases, **options)
after = os.times()
print(json.dumps({{"self": after.user + after.system - before.user - before.system, "cases": len(cases),
                   "sandbox": result.sandbox}}))
"""


def measure(path: Path, mode: str, runs: int) -> tuple[float, float, dict]:
    """(the cgroup's CPU seconds, the grading process's own over its runs, what it said)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "inner.py"
        script.write_text(INNER.format(kit=str(KIT), path=str(path)), encoding="utf-8")
        _wall, tree, how, done = run_counted([sys.executable, str(script), mode, str(runs)],
                                             stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    said = json.loads(done.stdout.strip().splitlines()[-1])
    return tree, said["self"], {**said, "how": how}


def split(path: Path, runs: int) -> dict:
    result: dict = {}
    for mode in ("start", "all"):
        tree_small, self_small, _ = measure(path, mode, 2)
        tree_big, self_big, said = measure(path, mode, 2 + runs)
        own = self_big / (2 + runs)
        result[mode] = {"grading": own * 1000, "sandboxed": ((tree_big - tree_small) / runs - own) * 1000,
                        "cases": said["cases"], "sandbox": said["sandbox"], "how": said["how"]}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    result = split(args.path.resolve(), args.runs)
    start, every = result["start"], result["all"]
    count = every["cases"]
    print(f"one submission's CPU ({args.path.name}, sandbox {every['sandbox']}, {args.runs} runs a mode; "
          f"counted by {every['how']}), ms:")
    print(f"  {'':34} {'grading process':>16} {'sandboxed side':>15} {'both':>8}")
    rows = [("child start + student import", start["grading"], start["sandboxed"]),
            (f"{count} cases", every["grading"] - start["grading"], every["sandboxed"] - start["sandboxed"])]
    for label, own, side in rows:
        print(f"  {label:34} {own:16.2f} {side:15.2f} {own + side:8.2f}")
    own, side = rows[1][1] / count * 1000, rows[1][2] / count * 1000
    print(f"  {'a case (us)':34} {own:16.1f} {side:15.1f} {own + side:8.1f}")
    print(f"  {'in all':34} {every['grading']:16.2f} {every['sandboxed']:15.2f} "
          f"{every['grading'] + every['sandboxed']:8.2f}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
