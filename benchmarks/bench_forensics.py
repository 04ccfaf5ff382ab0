"""What forensics adds to a batch's time, in a class with [variants].

    .venv/bin/python benchmarks/bench_forensics.py [--count N] [--workers W] [--json PATH]

Writes a simulated class of --count (default 60) students with variants (tests/variants/simulated_class.py:
~80% correct, 10% planted copies of another student's engine, 5% buggy, 5% the lecture's engine), then
times, wall clock, three fresh `grade_batch` runs of it with --workers (default 2):

  1. the base assignment (no [variants]): the reference point;
  2. with variants, forensics off (grading.grade_path(forensics=False));
  3. with variants and forensics: every submission also sampled, the class's flags computed.

The goldens are computed beforehand (an untimed warm-up run), so every timed run finds them cached.
Goal: forensics adds under 30% to the batch's time (3 over 2). Exit code 0 if met, 1 if not.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "variants"))

from autograder.batch.discover import discover  # noqa: E402
from autograder.batch.run import grade_batch  # noqa: E402
from autograder.config import from_mapping  # noqa: E402
from autograder.grading import grade_path  # noqa: E402
from autograder.tasks import VARIANT_OPS  # noqa: E402

GOAL = 0.30


def grade_without_forensics(path: Path, *, rubric, name: str):
    """The batch's default grading, forensics left out: what forensics is measured against."""
    return grade_path(path, rubric=rubric, include_hidden=True, name=name, forensics=False)


def _run(root: Path, out: Path, rubric, workers: int, **kw) -> float:
    shutil.rmtree(out, ignore_errors=True)
    entries = discover([root]).entries
    started = time.perf_counter()
    result = grade_batch(entries, out, rubric=rubric, workers=workers, progress=False, **kw)
    elapsed = time.perf_counter() - started
    assert len(result.rows) == len(entries)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    from simulated_class import plan, write_class

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    base = from_mapping({"hidden_seed": 424242})
    # every dimension but the random cases' seed (whose goldens are the warm-up's, not forensics'), the whole pool
    course = from_mapping({"hidden_seed": 424242, "variants": {"points": 6, "vary": ["op", "activation", "worked"],
                                                                "pool": list(VARIANT_OPS)}})
    with tempfile.TemporaryDirectory(prefix="bench-forensics-") as tmp:
        tmp = Path(tmp)
        os.environ.setdefault("AUTOGRADER_CACHE", str(tmp / "cache"))
        n = args.count
        root = write_class(tmp / "class", plan(n, copies=n // 10, buggy=n // 20, lecture=n // 20), course)
        _run(root, tmp / "warm", course, args.workers)  # every variant's goldens, cached
        _run(root, tmp / "warm-base", base, args.workers)
        times = {
            "base": _run(root, tmp / "base", base, args.workers),
            "variants": _run(root, tmp / "plain", course, args.workers, grade_one=grade_without_forensics),
            "variants+forensics": _run(root, tmp / "forensics", course, args.workers),
        }
        flags = json.loads((tmp / "forensics" / "summary.json").read_text())["forensics"]["flags"]
    added = times["variants+forensics"] / times["variants"] - 1
    figures = {"count": n, "workers": args.workers, "seconds": {k: round(v, 2) for k, v in times.items()},
               "forensics_adds": round(added, 4), "variants_add": round(times["variants"] / times["base"] - 1, 4),
               "flags": len(flags), "goal": GOAL}
    print(json.dumps(figures, indent=1))
    print(f"forensics adds {added:.1%} to the batch's time (goal: under {GOAL:.0%})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0 if added < GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
