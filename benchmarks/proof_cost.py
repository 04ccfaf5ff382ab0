"""Where a proof of a named mistake spends its CPU, in bench_batch's class (diagnosis/repair, issue 32 item 3).

    .venv/bin/python benchmarks/proof_cost.py [--count 200] [--seed 1] [--passes 3]

bench_batch's class is graded in this process (grading.grade_path, as a batch worker does, libcst and the kit
imported and the goldens cached by a first pass), and each part of every proof is timed in CPU (this process's,
and its sandboxed children's where a part starts one): the text work (apply.repaired: reading the files, `ast`
narrowing, LibCST's parse, the transforms, printing, the diff), the copy (linked_copy and writing the repaired
files), and the copy's run (the worker's side: staging, starting the child, the conversation; the child's side).
Medians over the passes of the per-proof means; unprofiled (cProfile costs pure-Python code several times).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's kit, not the one installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))

import time  # noqa: E402

from profile_worker import children  # noqa: E402

own = time.process_time  # this process's CPU, to the nanosecond (os.times counts in ticks of 10 ms)

PARTS = ("repaired", "texts", "narrow", "parse", "visit", "print", "diff", "copy", "write", "run", "run_children",
         "prove", "prove_children")


def _timed(owner, name: str, totals: dict, label: str, with_children: bool = False):
    real = getattr(owner, name)

    def timed(*args, **kwargs):
        s0 = own()
        c0 = children() if with_children else 0.0
        try:
            return real(*args, **kwargs)
        finally:
            totals[label] += own() - s0
            if with_children:
                totals[label + "_children"] += children() - c0
    setattr(owner, name, timed)
    return real


def instrument(totals: dict) -> None:
    """Each part of a proof timed into totals (seconds of CPU)."""
    import libcst
    import autograder.diagnosis.repair as repair
    import autograder.grading as grading
    from autograder.diagnosis.repair import apply, narrow

    _timed(apply, "repaired", totals, "repaired")
    _timed(apply, "_texts", totals, "texts")
    _timed(narrow, "narrowed", totals, "narrow")
    _timed(narrow, "defined", totals, "narrow")
    _timed(narrow, "put_back", totals, "narrow")
    _timed(apply.cst, "parse_module", totals, "parse")
    _timed(apply, "_visit", totals, "visit")
    _timed(apply, "_changed", totals, "diff")
    _timed(repair, "linked_copy", totals, "copy")  # the repair's own copy (not shutil.copytree: staging uses it too)
    _timed(repair, "_write", totals, "write")
    real_code = libcst.Module.code.fget

    def code(self):
        s0 = own()
        try:
            return real_code(self)
        finally:
            totals["print"] += own() - s0
    libcst.Module.code = property(code)
    real_prove = repair.prove

    def prove(*args, run, **kwargs):
        def counted_run(root, chosen):
            s0, c0 = own(), children()
            try:
                return run(root, chosen)
            finally:
                totals["run"] += own() - s0
                totals["run_children"] += children() - c0
                totals["runs"] += 1
        s0, c0 = own(), children()
        try:
            return real_prove(*args, run=counted_run, **kwargs)
        finally:
            totals["prove"] += own() - s0
            totals["prove_children"] += children() - c0
            totals["proofs"] += 1
    repair.prove = prove
    grading.prove = prove  # grade_path imports it by name at each use: the module attribute is what it finds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    import bench_batch
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    rubric = load_rubric(bench_batch.RUBRIC_FILE)
    with tempfile.TemporaryDirectory(prefix="proof-cost-") as tmp:
        subs = Path(tmp) / "class"
        subs.mkdir()
        made = bench_batch.make_class(subs, args.count, args.seed)
        store = GoldenStore(cache_dir=Path(tmp) / "cache")
        for m in made:  # the goldens computed, everything imported and warm
            grade_path(m.path, rubric=rubric, include_hidden=True, store=store, name=m.student)
        import gc

        gc.freeze()  # as a batch worker keeps what it imported and warmed out of its collections (worker.py)
        totals: dict[str, float] = {}
        per: dict[str, list[float]] = {p: [] for p in PARTS}
        instrument(totals)
        for _ in range(args.passes):
            totals.clear()
            totals.update({p: 0.0 for p in PARTS}, proofs=0, runs=0)
            for m in made:
                grade_path(m.path, rubric=rubric, include_hidden=True, store=store, name=m.student)
            for p in PARTS:
                per[p].append(totals[p] / max(1, totals["proofs"]))
        print(f"{totals['proofs']} proofs ({totals['runs']} runs of a repaired copy) in a class of {args.count}; "
              f"ms of CPU a proof, median of {args.passes} passes:")
        for p in PARTS:
            print(f"  {p:15s} {1000 * statistics.median(per[p]):7.2f}")
        print(f"  a submission (class): {1000 * statistics.median(per['prove']) * totals['proofs'] / args.count:.2f}"
              f" ms own + {1000 * statistics.median(per['prove_children']) * totals['proofs'] / args.count:.2f} "
              f"children")
    return 0


if __name__ == "__main__":
    sys.exit(main())
