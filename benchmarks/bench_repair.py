"""What proving a named mistake by repair costs a failing submission's check (issue 30; goal: under 20%).

    .venv/bin/python benchmarks/bench_repair.py [--runs N] [--hidden] [--only ID ...] [--cli]

Each single-mistake variant with a named mistake (tests/corpus/variants.py) is checked as a student's
`autograder check` does (public cases; --hidden: public and hidden, as `grade`), with the repair and
without it, in turns, N times each, and the medians compared:
- in process (grade_path, repair=True/False): what the proof itself adds (the text edited by LibCST, the
  copy, one more child), libcst already imported;
- --cli: the command a student runs (`autograder check PATH`, a process each time; "without" has grading's
  prove() replaced by one that returns the report as it is),
  one variant per task: what the student waits for, the import of LibCST included.
On a shared machine the turns keep a busy moment from landing on one side only.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))

import variants as corpus  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CHECK = "import sys; from autograder.cli import main; sys.exit(main(['check', sys.argv[1], '--format', 'json']))"
# the kit without the proof: prove() returns the report as it is (LibCST is imported only by a proof)
WITHOUT = "import autograder.grading as g; g.prove = lambda report, **kw: report; " + CHECK


def _in_process(variant, path: Path, runs: int, hidden: bool, store) -> tuple[float, float, bool]:
    from autograder.config import load_rubric
    from autograder.grading import grade_path

    rubric = load_rubric(corpus.RUBRIC_FILE)
    times: dict[bool, list[float]] = {True: [], False: []}
    proven = False
    for run in range(runs):
        for repair in ((True, False) if run % 2 == 0 else (False, True)):
            started = time.perf_counter()
            report = grade_path(path, rubric=rubric, include_hidden=hidden, store=store, repair=repair)
            times[repair].append(time.perf_counter() - started)
            proven = proven or (repair and any(d.proven for t in report.tasks for d in t.diagnosis))
    return statistics.median(times[False]), statistics.median(times[True]), proven


def _cli(path: Path, runs: int) -> tuple[float, float]:
    times: dict[bool, list[float]] = {True: [], False: []}
    for run in range(runs):
        for repair in ((True, False) if run % 2 == 0 else (False, True)):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", CHECK if repair else WITHOUT, str(path)], cwd=REPO,
                           capture_output=True, check=False)
            times[repair].append(time.perf_counter() - started)
    return statistics.median(times[False]), statistics.median(times[True])


def _table(title: str, rows: list[tuple]) -> None:
    print(f"\n{title}\n{'variant':32} {'mistake':26} proven  check (s)  +repair (s)  added")
    for name, mistake, proven, without, with_ in rows:
        print(f"{name:32} {mistake:26} {proven:6}  {without:8.3f}  {with_:10.3f}  {(with_ - without) / without:+6.1%}")
    shares = [(w - wo) / wo for *_, wo, w in rows]
    print(f"median check: {statistics.median(r[3] for r in rows):.3f} s without proving, "
          f"{statistics.median(r[4] for r in rows):.3f} s with; median share added {statistics.median(shares):+.1%}, "
          f"median seconds added {statistics.median(w - wo for *_, wo, w in rows):.3f} (goal: under 20%)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="checks of each variant with and without (default 3)")
    parser.add_argument("--hidden", action="store_true", help="grade with the hidden cases too (in process)")
    parser.add_argument("--only", nargs="*", metavar="ID", help="only these variant ids")
    parser.add_argument("--cli", action="store_true", help="also time the command, one variant per task")
    args = parser.parse_args(argv)

    from autograder.goldens import GoldenStore

    chosen = [v for v in corpus.VARIANTS if corpus.NAMED[v.id] and (not args.only or v.id in args.only)]
    with tempfile.TemporaryDirectory(prefix="bench-repair-") as tmp:
        store = GoldenStore(cache_dir=Path(tmp) / "goldens")
        paths = {v.id: corpus.build(v, Path(tmp) / v.id) for v in chosen}
        rows = []
        for v in chosen:
            without, with_, proven = _in_process(v, paths[v.id], args.runs, args.hidden, store)
            rows.append((v.id, corpus.NAMED[v.id], "yes" if proven else "no", without, with_))
        _table(f"in process, {len(rows)} variants, {args.runs} run(s) each way, "
               f"{'public + hidden' if args.hidden else 'public'} cases", rows)
        if args.cli:
            first = list({v.task: v for v in reversed(chosen)}.values())[::-1]  # one variant per task
            cli = [(v.id, corpus.NAMED[v.id], "", *_cli(paths[v.id], args.runs)) for v in first]
            _table(f"the command a student runs, {len(cli)} variants (one per task), {args.runs} run(s) each way", cli)
    return 0


if __name__ == "__main__":
    sys.exit(main())
