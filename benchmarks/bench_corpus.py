"""Grade the single-bug corpus and print, per variant, the tasks it costs points in.

    .venv/bin/python benchmarks/bench_corpus.py [--runs N] [--workers N] [--only ID ...]

The corpus is tests/corpus/variants.py. The table ends with the average number
of tasks hit per variant (1.0 would be perfect isolation), the variants that hit
more than one task with the cases that caught them, and the time taken.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))

import variants as corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="full passes over the corpus (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="variants graded at once (default 2)")
    parser.add_argument("--only", nargs="*", metavar="ID", help="grade only these variant ids")
    args = parser.parse_args(argv)
    chosen = corpus.VARIANTS
    if args.only:
        unknown = sorted(set(args.only) - set(corpus.by_id()))
        if unknown:
            parser.error(f"unknown variant id(s): {', '.join(unknown)}")
        chosen = tuple(v for v in corpus.VARIANTS if v.id in args.only)
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        started = time.monotonic()
        results = corpus.grade_corpus(Path(tmp), runs=args.runs, workers=args.workers, variants=chosen)
        seconds = time.monotonic() - started
    print(corpus.table(results))
    uncaught = [name for name, runs in results.items()
                if any(corpus.by_id()[name].task not in r.hit for r in runs)]
    unstable = [name for name, runs in results.items() if len({r.score_key for r in runs}) > 1]
    per_grade = [r.seconds for runs in results.values() for r in runs]
    print(f"uncaught in their own task: {', '.join(uncaught) or 'none'}")
    if args.runs > 1:
        print(f"scores differing between runs: {', '.join(unstable) or 'none'}")
    print(f"{len(results)} variants x {args.runs} run(s), {args.workers} worker(s): {seconds:.1f} s "
          f"(one grade: mean {sum(per_grade) / len(per_grade):.2f} s, max {max(per_grade):.2f} s)")
    return 1 if uncaught or unstable else 0


if __name__ == "__main__":
    sys.exit(main())
