"""Where one submission's time goes, stage by stage, as the batch spends it (medians of --repeat).

    .venv/bin/python benchmarks/profile_one.py [PATH ...] [--repeat N]

Parent side: prepare (copy into the kit's package), the child's start and the student's import
(run_cases with no case: the sandbox, the interpreter, the child's own imports, the import of
the student's modules), the cases (run_cases with every public and hidden case, minus that),
scoring, the JSON report and the feedback page (with its graph pictures: graphviz's dot).
Child side, where each child starts an interpreter of its own (not when a zygote forks it:
benchmarks/child_costs.py compares the two in CPU time): a bare interpreter as the child is started
(`python -I -S -c pass`), and the child's own imports (`-X importtime` of autograder/child/main.py's
imports, outside the sandbox).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.goldens import GoldenStore  # noqa: E402
from autograder.grading import limits_for, select_cases  # noqa: E402
from autograder.report.html_report import render_feedback  # noqa: E402
from autograder.report.json_report import render_json  # noqa: E402
from autograder.runner.levels.basic import interpreter  # noqa: E402
from autograder.runner.levels import current  # noqa: E402
from autograder.runner.levels.zygote.level import ZygoteLevel, wanted  # noqa: E402
from autograder.runner.session import run_cases  # noqa: E402
from autograder.scoring.score import score_run  # noqa: E402
from autograder.submission.load import prepare  # noqa: E402


def _median(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def profile(path: Path, repeat: int = 5) -> dict[str, float]:
    rubric = load_rubric(KIT / "assignment.toml")
    cases = select_cases(rubric, include_hidden=True)
    goldens = GoldenStore().goldens(cases, activation=rubric.activation)
    limits = limits_for(rubric)
    stages: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        count = iter(range(10 ** 6))
        stages["prepare (parent)"], prepared = _median(lambda: prepare(path, Path(tmp) / str(next(count))), repeat)
        options = dict(limits=limits, files=prepared.files, forbidden=rubric.forbidden_imports,
                       allowed=rubric.allowed_imports)
        start, _ = _median(lambda: run_cases(prepared.root, [], **options), repeat)
        every, run = _median(lambda: run_cases(prepared.root, cases, **options), repeat)
        stages["child start + student import"] = start
        stages[f"{len(cases)} cases in the child"] = every - start
        stages["score (parent)"], report = _median(
            lambda: score_run(path.name, cases, run.outcomes, goldens, rubric, sandbox=run.sandbox), repeat)
        from autograder.batch.keys import GradeKey
        from autograder.batch.store import BatchRow, Store
        from autograder.grading import golden_values

        stages["goldens looked up (parent, in memory)"], _ = _median(
            lambda: golden_values(cases, rubric, GoldenStore()), repeat)
        with Store(Path(tmp) / "gradebook.sqlite") as store:
            keys = iter(GradeKey(str(i), "", "", "") for i in range(10 ** 6))
            stages["row stored (gradebook.sqlite)"], _ = _median(
                lambda: store.put(BatchRow(path.name, report), next(keys)), repeat)
        stages["JSON report (parent)"], _ = _median(lambda: render_json(report), repeat)
        stages["feedback page + pictures (parent)"], _ = _median(lambda: render_feedback(report), repeat)
    python = interpreter()
    if isinstance(current(), ZygoteLevel) and wanted():  # the child forked from a pre-imported zygote, no interpreter
        return stages
    stages["  of which: bare interpreter (-I -S)"], _ = _median(
        lambda: subprocess.run([python, "-I", "-S", "-c", "pass"], check=True), repeat)
    stages["  of which: the child's own imports"] = _child_imports(python)
    return stages


def _child_imports(python: str) -> float:
    """Seconds of the child's imports (-X importtime, cumulative, top-level modules)."""
    code = "import sys; sys.path.insert(0, %r); import autograder.child.main" % str(KIT)
    done = subprocess.run([python, "-I", "-S", "-X", "importtime", "-c", code], capture_output=True, text=True)
    total = 0
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and not parts[2].startswith("  ") and parts[1].strip().isdigit():
            total += int(parts[1])
    return total / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[KIT / "solutions"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    for path in args.paths:
        stages = profile(path, args.repeat)
        print(f"one submission ({path.name}), medians of {args.repeat}:")
        for stage, seconds in stages.items():
            print(f"  {stage:40} {seconds * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
