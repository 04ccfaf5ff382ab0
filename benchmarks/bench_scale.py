"""How `autograder grade` scales with the class: memory, reruns and merge (issue 32, items 1 and 2).

    .venv/bin/python benchmarks/bench_scale.py [--counts 200,5000] [--big] [--merge-count 200,2000] [--replay] [--json PATH]

For each class size (200 and 5,000; --big adds 20,000: the machine is shared, so only on request) it makes
cheap submissions (one .py file each: the solution or one of a few bugs of tests/corpus/variants.py, each
with a comment naming its student, so every submission's key differs) and runs real `autograder grade DIR
--out OUT --workers 2` processes:

  1. the class graded into a fresh folder: wall, submissions/s, and the grading process's peak memory
     (ru_maxrss of that process alone, not its workers: it is what holds the class);
  2. the same command again, nothing new: wall (goal under 1 s at 5,000);
  3. one student's file replaced by another engine (their score changes, so the gradebook and summaries are
     made again), the command again: wall (goal under 1.5 s at 5,000);
Each run's CPU (the grading process, its workers and their children) is reported beside its wall time: on a
shared machine the wall time includes waiting for a core. And, for each class of --merge-count (200 and 2,000), the
two shards (--shard 1/2, 2/2) graded and `autograder merge` measured: wall, CPU, and the merge process's peak
memory (ru_maxrss of that process alone), with the ratio of the peaks (issue 32: nothing a class's size
multiplies held).

Goals (issue 32): peak memory at 20,000 at most 1.5x that at 200; reruns as above.
The goldens are computed beforehand into a private AUTOGRADER_CACHE, so no timed run computes them.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
RUBRIC_FILE = KIT / "assignment.toml"
sys.path.insert(0, str(KIT / "tests" / "corpus"))
sys.path.insert(0, str(KIT / "benchmarks"))

import variants as corpus  # noqa: E402
from bench_batch import FILES, single_file, solution_texts  # noqa: E402

# the grading process, with its own peak resident memory printed last (KiB; its children are not counted)
_MEASURED = ("import resource, sys, runpy\n"
             "sys.argv = ['autograder', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('autograder', run_name='__main__')\n"
             "except SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
             "print('MAXRSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
             "raise SystemExit(code)\n")


def engines() -> list[str]:
    """A few whole engines in one file each: the solution and some one-bug variants."""
    solutions = solution_texts()
    texts = [single_file(solutions)]
    for variant in corpus.VARIANTS[:4]:
        if variant.file in FILES:
            texts.append(single_file({**solutions, variant.file: corpus.variant_source(variant)}))
    return texts


def make_class(dest: Path, count: int) -> list[Path]:
    dest.mkdir(parents=True)
    made = engines()
    paths = []
    for i in range(count):
        path = dest / f"s{i + 1:05d}.py"
        path.write_text(made[i % len(made)] + f"\n# student s{i + 1:05d}\n", encoding="utf-8")
        paths.append(path)
    return paths


def grade(args: list[str], env: dict, cpu: list | None = None, *, replay: Path | None = None) -> tuple[float, int]:
    """(wall seconds, the grading process's peak RSS in MiB); cpu: gets the CPU seconds of the process and its
    workers (and their children): on a shared machine, what the run cost, whatever the wait for a core.
    replay: the real reports the workers hand back (scale_replay.py; args: SUBMISSIONS OUT [--shard I/N])."""
    argv = [sys.executable, "-c", _MEASURED, *args] if replay is None else \
        [sys.executable, str(KIT / "benchmarks" / "scale_replay.py"), str(replay), *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=KIT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2))
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_scale: {' '.join(args)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    rss = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("MAXRSS"))
    return wall, rss // 1024


def grade_args(subs: Path, out: Path, *more: str) -> list[str]:
    return ["grade", str(subs), "--out", str(out), "--workers", "2", "--config", str(RUBRIC_FILE), *more]


def one_class(root: Path, count: int, env: dict, replay: Path | None = None) -> dict:
    subs, out = root / f"class{count}", root / f"out{count}"
    paths = make_class(subs, count)
    cpu: list = []
    wall, rss = grade(grade_args(subs, out) if replay is None else [str(subs), str(out)], env, cpu, replay=replay)
    again, _ = grade(grade_args(subs, out), env, cpu)
    one = count // 2  # another engine handed in after the deadline: their score, and so the class's files, change
    made = engines()
    paths[one].write_text(made[(one + 1) % len(made)] + f"\n# student s{one + 1:05d}, again\n", encoding="utf-8")
    changed, _ = grade(grade_args(subs, out), env, cpu)
    return {"count": count, "wall": round(wall, 2), "per_s": round(count / wall, 1), "peak_rss_mib": rss,
            "rerun_nothing_new": round(again, 2), "rerun_one_changed": round(changed, 2), "load": load(),
            "cpu": cpu[0], "rerun_nothing_new_cpu": cpu[1], "rerun_one_changed_cpu": cpu[2],
            "replayed": replay is not None}


def merge(root: Path, count: int, env: dict, replay: Path | None = None) -> dict:
    """The two shards of a class of `count` graded, then `autograder merge` measured: its wall, CPU and the merge
    process's own peak memory."""
    subs = root / f"merge{count}"
    make_class(subs, count)
    shards = [root / f"merge{count}-shard{i}" for i in (1, 2)]
    for i, shard in enumerate(shards, 1):
        grade(grade_args(subs, shard, "--shard", f"{i}/2") if replay is None else
              [str(subs), str(shard), "--shard", f"{i}/2"], env, replay=replay)
    cpu: list = []
    wall, rss = grade(["merge", *map(str, shards), "--out", str(root / f"merged{count}"),
                       "--config", str(RUBRIC_FILE)], env, cpu)
    return {"count": count, "merge_wall": round(wall, 2), "merge_cpu": cpu[0], "merge_peak_rss_mib": rss,
            "load": load()}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="200,5000", help="class sizes, comma-separated (default 200,5000)")
    parser.add_argument("--big", action="store_true", help="also a class of 20,000 (long: the machine is shared)")
    parser.add_argument("--merge-count", default="200,2000", help="the classes (comma-separated) the merge of "
                        "2 shards is measured on, the ratio of its peak memory printed (0: none; default 200,2000)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    parser.add_argument("--replay", action="store_true", help="the first grading of each class (and the shards) "
                        "with workers that replay the class's engines' reports, graded once for real: the grading "
                        "process's memory and the reruns as in a real run, in minutes on a shared machine "
                        "(scale_replay.py); the reruns grade for real")
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.counts.split(",") if c] + ([20000] if args.big else [])
    results: dict = {"classes": [], "merge": []}
    merges = [int(c) for c in args.merge_count.split(",") if int(c)]
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        root = Path(tmp)
        # the kit imported from its bytecode, as installed (pip compiles it; the untimed run below writes it here)
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "AUTOGRADER_CACHE": str(root / "cache")}
        warm = root / "warm"
        make_class(warm, 1)
        grade(["grade", str(warm / "s00001.py"), "--config", str(RUBRIC_FILE)], env)  # the goldens, untimed
        replay = None
        if args.replay:  # each engine of make_class graded once, for real: the reports the workers replay
            make_class(root / "engines", len(engines()))
            grade(grade_args(root / "engines", root / "engines-out"), env)
            replay = root / "engines-out" / "reports"
        for count in counts:
            row = one_class(root, count, env, replay)
            results["classes"].append(row)
            print(f"{count:>6} submissions: {row['wall']:.1f} s ({row['per_s']}/s), grading process peak "
                  f"{row['peak_rss_mib']} MiB; rerun, nothing new "
                  f"{row['rerun_nothing_new']:.2f} s "
                  f"({row['rerun_nothing_new_cpu']:.2f} s CPU); one changed {row['rerun_one_changed']:.2f} s "
                  f"({row['rerun_one_changed_cpu']:.2f} s CPU)  (load {row['load']})", flush=True)
        for count in merges:
            m = merge(root, count, env, replay)
            results["merge"].append(m)
            print(f"merge of 2 shards of {m['count']}: {m['merge_wall']:.2f} s ({m['merge_cpu']:.2f} s CPU), "
                  f"merge process peak {m['merge_peak_rss_mib']} MiB (load {m['load']})", flush=True)
        if len(merges) > 1:
            low, high = results["merge"][0], results["merge"][-1]
            print(f"merge peak memory at {high['count']}: {high['merge_peak_rss_mib'] / low['merge_peak_rss_mib']:.2f}x "
                  f"that at {low['count']}")
    rows = {r["count"]: r for r in results["classes"]}
    if 200 in rows and max(rows) > 200:
        top = rows[max(rows)]
        print(f"peak memory at {max(rows)}: {top['peak_rss_mib'] / rows[200]['peak_rss_mib']:.2f}x that at 200 "
              "(goal at 20,000: at most 1.5x)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
