"""Where a batch's CPU goes, process by process: the grading process (the main one: storing rows,
writing reports and feedback pages, the class files), each worker (preparing, scoring, the goldens,
the cases) and the sandboxed children (the student's code, the interpreter, bubblewrap).

    .venv/bin/python benchmarks/profile_batch.py [--count N] [--workers N] [--top N] [--pstats DIR]
    .venv/bin/python benchmarks/profile_batch.py --fixed RUNS    # what a class costs whatever its size

Builds the class benchmarks/bench_batch.py builds (--count submissions, --seed), warms the goldens
into a private cache, then grades it as `autograder grade DIR --out OUT --workers N` does
(batch.run.grade_batch, here in this process so it can be profiled) with a grade_one that wraps
the default one (worker.grade_hidden: profile_worker.py) and notes, per submission, the worker's own
CPU, its sandboxed children's (reaped by the worker, or by its zygote as the zygote says at each
reap), and of both what the proofs of named mistakes took; the whole tree's CPU (every descendant,
once the pool's workers are reaped) less those gives the rest: the workers' and zygotes' start-up.
Prints CPU per submission, by process kind, and the functions that cost the grading
process and the workers most (cProfile, own time and cumulative).
CPU time, not wall clock: the machine may be shared.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))
sys.path.insert(0, str(KIT / "benchmarks"))
sys.path.insert(0, str(KIT / "tests" / "corpus"))

from profile_worker import LOG_ENV, PROFILE_ENV, profiled_grade, profiler  # noqa: E402
from tree_cpu import counting_here  # noqa: E402


# the grading process's own stages, timed in its main thread (time.thread_time: user + sys of that thread)
MAIN_STAGES = (("store a row (gradebook.sqlite)", "autograder.batch.store", "Store", "put"),
               ("a student's report + feedback page", "autograder.batch.outputs", "OutputFiles", "write_student"),
               ("the class's files at the end", "autograder.batch.outputs", "OutputFiles", "finish"))


def _timed_main_stages() -> dict[str, float]:
    """Wrap each of MAIN_STAGES (once a process) to add its thread CPU to the returned dict."""
    import importlib

    if _SPENT:
        return _SPENT[0]

    spent = {label: 0.0 for label, *_ in MAIN_STAGES}
    inside: list[str] = []
    for label, module, cls, name in MAIN_STAGES:
        owner = getattr(importlib.import_module(module), cls)
        real = getattr(owner, name)

        def timed(*args, _real=real, _label=label, **kwargs):
            if inside:  # a stage within a stage (finish writes each student's files again): the outer one's
                return _real(*args, **kwargs)
            inside.append(_label)
            started = time.thread_time()
            try:
                return _real(*args, **kwargs)
            finally:
                spent[_label] += time.thread_time() - started
                inside.pop()
        setattr(owner, name, timed)
    _SPENT.append(spent)
    return spent


_SPENT: list[dict[str, float]] = []


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _tree() -> float:
    """CPU of every reaped descendant: the workers (reaped when the pool shuts down) with all they reaped."""
    t = os.times()
    return t.children_user + t.children_system


def run(count: int, workers: int, seed: int, top: int, keep: Path | None, profiling: bool | str = True,
        endless: bool = True) -> dict:
    """bench_batch's class of `count`, its goldens warmed, then split(). profiling False: CPU times alone
    (cProfile costs pure-Python code several times its own time). endless False: the class without its
    endless loops, as bench_batch's goal run and the floor grade it."""
    import bench_batch

    with tempfile.TemporaryDirectory(prefix="profile-batch-") as tmp:
        tmp = Path(tmp)
        subs = tmp / "class"
        subs.mkdir()
        made = bench_batch.make_class(subs, count, seed)
        if not endless:
            subs = tmp / "class-honest"
            bench_batch.without_endless(made, subs)
        result = split(subs, tmp / "cache", tmp / "work", workers=workers, logs=keep, profiling=profiling)
        print_split(result)
        if profiling:
            logs = Path(result["logs"])
            _top("grading process (main)", pstats.Stats(str(logs / "main.pstats")), top)
            worker_stats = [str(p) for p in sorted(logs.glob("worker-*.pstats"))]
            if worker_stats:
                _top("workers (together)", pstats.Stats(*worker_stats), top)
        return result


def split(subs: Path, cache: Path, work: Path, *, workers: int = 2, logs: Path | None = None,
          profiling: bool | str = False) -> dict:
    """Grade the class in `subs` as `autograder grade` does (its goldens in `cache`: warmed first, untimed),
    and say where its CPU went, per submission, by process and by the main process's stage. profiling: True,
    cProfile on the wall clock; "cpu", on each thread's CPU time."""
    import bench_batch
    from autograder.batch.discover import discover
    from autograder.batch.run import grade_batch
    from autograder.config import load_rubric

    logs = logs or work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    for old in logs.glob("worker-*"):
        old.unlink()
    os.environ["AUTOGRADER_CACHE"] = str(cache)
    os.environ.pop("AUTOGRADER_HIDDEN_SEED", None)
    os.environ[LOG_ENV] = str(logs)
    os.environ[PROFILE_ENV] = "cpu" if profiling == "cpu" else "1" if profiling else "0"
    rubric = load_rubric(bench_batch.RUBRIC_FILE)
    warm = work / "warm"
    shutil.copytree(bench_batch.corpus.SOLUTIONS, warm / "w000" / "micrograd", ignore=shutil.ignore_patterns("__pycache__"))
    grade_batch(discover([warm], work / "intake-warm").entries, work / "out-warm", rubric=rubric, workers=1,
                progress=False)
    for old in logs.glob("worker-*"):
        old.unlink()

    entries = discover([subs], work / "intake").entries
    stages = _timed_main_stages()
    before = dict(stages)
    profile = profiler(profiling == "cpu")
    with counting_here() as counted:  # every process, whoever reaps it (a zygote's forks are killed, not reaped)
        cpu0, tree0, wall0, main_thread0 = _cpu(), _tree(), time.perf_counter(), time.thread_time()
        group0 = counted() if counted else 0.0
        if profiling:
            profile.enable()
        grade_batch(entries, work / "out", rubric=rubric, workers=workers, progress=False, grade_one=profiled_grade)
        if profiling:
            profile.disable()
            profile.dump_stats(logs / "main.pstats")
        main_cpu, tree, wall = _cpu() - cpu0, _tree() - tree0, time.perf_counter() - wall0
        time.sleep(0.2)  # what the workers' zygotes left ending
        everything = counted() - group0 if counted else None
    main_thread = time.thread_time() - main_thread0
    spent = {label: stages[label] - before[label] for label in stages}
    lines = [json.loads(line) for p in sorted(logs.glob("worker-*.jsonl")) for line in p.read_text().splitlines()]
    n = len(entries)
    workers_own, reaped = sum(x["self"] for x in lines), sum(x["children"] for x in lines)
    proofs_own, proofs_children = sum(x["proofs_self"] for x in lines), sum(x["proofs_children"] for x in lines)
    return {
        "count": n, "workers": workers, "wall_seconds": wall, "per_second": n / wall, "logs": str(logs),
        "load_after": os.getloadavg()[0],
        "ms_per_submission": {
            "main process (store, reports, pages, class files)": 1000 * main_cpu / n,
            "workers, own: prepare, the cases' conversation, score": 1000 * (workers_own - proofs_own) / n,
            "workers, own: proofs of named mistakes (LibCST, the copy's conversation)": 1000 * proofs_own / n,
            "sandboxed children: the cases (interpreter, student code, bwrap or zygote)":
                1000 * (reaped - proofs_children) / n,
            "sandboxed children: the proofs' runs of the repaired copies": 1000 * proofs_children / n,
            "the rest: workers' and zygotes' start, bwrap, and the children no one reaps "
            "(a cgroup's count less the above)" if everything is not None else
            "the rest of the tree (workers' and zygotes' start), as reaped (a lower bound)":
                1000 * ((everything - main_cpu if everything is not None else tree) - workers_own - reaped) / n,
        },
        "workers_collector_ms": 1000 * sum(x.get("gc", 0.0) for x in lines) / n,
        "counted_by": "a cgroup" if everything is not None else "getrusage (no cgroup here: a lower bound)",
        "proofs": sum(x["proofs_count"] for x in lines),
        "main_process_ms": {**{label: 1000 * v / n for label, v in spent.items()},
                            "the rest of its main thread (the pool, results, progress)":
                                1000 * (main_thread - sum(spent.values())) / n,
                            "its other threads (the pool's: reading results)":
                                1000 * (main_cpu - main_thread) / n},
    }


def print_split(result: dict, indent: str = "") -> None:
    n, wall = result["count"], result["wall_seconds"]
    print(f"{indent}{n} submissions, {result['workers']} worker(s), {wall:.1f} s wall = {n / wall:.2f}/s "
          f"(load {result['load_after']:.2f} after)")
    print(f"{indent}CPU per submission (user + sys), by process:")
    for what, ms in result["ms_per_submission"].items():
        print(f"{indent}  {what:76} {ms:7.1f} ms")
    print(f"{indent}  {'total':76} {sum(result['ms_per_submission'].values()):7.1f} ms")
    print(f"{indent}  ({result['proofs']} proofs of named mistakes for {n} submissions; the total counted by "
          f"{result['counted_by']})")
    print(f"{indent}  (of the workers' own: Python's collector {result['workers_collector_ms']:.1f} ms)")
    print(f"{indent}the main process's CPU per submission, by stage (and in all, for the class):")
    for what, ms in result["main_process_ms"].items():
        print(f"{indent}  {what:70} {ms:6.1f} ms {ms * n / 1000:6.2f} s")
    print(f"{indent}  (the class's files are written once: per submission they cost less in a larger class)")


def fixed_costs(runs: int, workers: int = 2, count: int = 2) -> dict:
    """What a class costs whatever its size: `autograder grade` on `count` copies of the solution, as a real
    process, `runs` times (a first, untimed run warms the goldens); medians of the wall clock and of the CPU
    of every process of the run (tree_cpu.run_counted: a cgroup where one can be made)."""
    import bench_batch
    from tree_cpu import run_counted

    with tempfile.TemporaryDirectory(prefix="profile-fixed-") as tmp:
        tmp = Path(tmp)
        for i in range(count):
            shutil.copytree(bench_batch.corpus.SOLUTIONS, tmp / "class" / f"s{i:03d}" / "micrograd",
                            ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "AUTOGRADER_CACHE": str(tmp / "cache")}
        env.pop("AUTOGRADER_HIDDEN_SEED", None)
        walls, cpus, how = [], [], ""
        for i in range(runs + 1):
            argv = [sys.executable, "-m", "autograder", "grade", str(tmp / "class"), "--out", str(tmp / f"out{i}"),
                    "--workers", str(workers), "--config", str(bench_batch.RUBRIC_FILE)]
            wall, cpu, how, done = run_counted(argv, cwd=KIT, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"profile_batch: {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
            if i:
                walls.append(wall)
                cpus.append(cpu)
    return {"count": count, "workers": workers, "runs": runs, "counted_by": how, "load_after": os.getloadavg()[0],
            "wall_seconds": statistics.median(walls), "cpu_seconds": statistics.median(cpus),
            "walls": walls, "cpus": cpus}


def _top(title: str, stats: pstats.Stats, top: int) -> None:
    print(f"\n{title}: top {top} by own time")
    stats.sort_stats("tottime").print_stats(top)
    print(f"{title}: top {top} by cumulative time")
    stats.sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--pstats", type=Path, help="keep the cProfile files here (main.pstats, worker-PID.pstats)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument("--no-cprofile", action="store_true",
                        help="CPU times alone, without cProfile (which slows pure-Python code several times)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="cProfile on each thread's CPU time, not the wall clock (a worker's wait for its child "
                             "then counts only what it costs)")
    parser.add_argument("--no-endless", action="store_true",
                        help="the class without its endless loops (bench_batch's goal run, the floor's class)")
    parser.add_argument("--fixed", type=int, metavar="RUNS",
                        help="instead: what a class costs whatever its size, `autograder grade` on a class of 2 "
                             "as a real process RUNS times (medians of wall clock and CPU of every process)")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    if args.fixed:
        result = fixed_costs(args.fixed, args.workers)
        print(f"a class of {result['count']}, {result['workers']} worker(s), {result['runs']} runs: "
              f"{result['wall_seconds']:.3f} s wall, {result['cpu_seconds']:.3f} s CPU (medians; CPU counted by "
              f"{result['counted_by']}; load {result['load_after']:.2f} after)")
        print("  walls " + " ".join(f"{x:.2f}" for x in result["walls"]) + "; CPUs " +
              " ".join(f"{x:.2f}" for x in result["cpus"]))
    else:
        profiling = False if args.no_cprofile else "cpu" if args.cpu_clock else True
        result = run(args.count, args.workers, args.seed, args.top, args.pstats, profiling=profiling,
                     endless=not args.no_endless)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
