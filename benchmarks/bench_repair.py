"""What proving a named mistake by repair costs a failing submission's check (issue 30; goal: under 20%).

    .venv/bin/python benchmarks/bench_repair.py [--runs N] [--hidden] [--only ID ...]

Each single-mistake variant with a named mistake (tests/corpus/variants.py) is checked as a student's
`autograder check` does (public cases; --hidden: public and hidden, as `grade`), with the repair and
without it (grade_path's repair=False), in turns, N times each; the table gives the medians per variant
and what proving added, and the last lines the medians over all variants. On a shared machine the turns
keep a busy moment from landing on one side only.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))

import variants as corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="checks of each variant with and without (default 3)")
    parser.add_argument("--hidden", action="store_true", help="grade with the hidden cases too")
    parser.add_argument("--only", nargs="*", metavar="ID", help="only these variant ids")
    args = parser.parse_args(argv)

    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    rubric = load_rubric(corpus.RUBRIC_FILE)
    chosen = [v for v in corpus.VARIANTS if corpus.NAMED[v.id] and (not args.only or v.id in args.only)]
    rows, shares = [], []
    with tempfile.TemporaryDirectory(prefix="bench-repair-") as tmp:
        store = GoldenStore(cache_dir=Path(tmp) / "goldens")
        for variant in chosen:
            path = corpus.build(variant, Path(tmp) / variant.id)
            times = {True: [], False: []}
            proven = False
            for run in range(args.runs):
                for repair in ((True, False) if run % 2 == 0 else (False, True)):
                    started = time.perf_counter()
                    report = grade_path(path, rubric=rubric, include_hidden=args.hidden, store=store, repair=repair)
                    times[repair].append(time.perf_counter() - started)
                    proven = proven or (repair and any(d.proven for t in report.tasks for d in t.diagnosis))
            with_, without = statistics.median(times[True]), statistics.median(times[False])
            share = (with_ - without) / without
            shares.append(share)
            rows.append((variant.id, corpus.NAMED[variant.id], "yes" if proven else "no", without, with_, share))
    print(f"{'variant':32} {'mistake':26} proven  check (s)  +repair (s)  added")
    for name, mistake, proven, without, with_, share in rows:
        print(f"{name:32} {mistake:26} {proven:6}  {without:8.3f}  {with_:10.3f}  {share:+6.1%}")
    print(f"\n{len(rows)} variants, {args.runs} run(s) each way, {'public + hidden' if args.hidden else 'public'} cases")
    print(f"median check without proving: {statistics.median(r[3] for r in rows):.3f} s, "
          f"with: {statistics.median(r[4] for r in rows):.3f} s")
    print(f"median share proving adds: {statistics.median(shares):+.1%} (goal: under 20%); "
          f"upper quartile {statistics.quantiles(shares, n=4)[2]:+.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
