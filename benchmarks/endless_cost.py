"""What endless loops cost a batch: a one-worker batch of a class with 1% endless submissions, against the
same class with each endless one replaced by a correct one in the same layout (issue 29: goal under 10% of
the wall time).

    .venv/bin/python benchmarks/endless_cost.py [--count N] [--repeats R] [--seed S]

The class is bench_batch's (its mix, layouts and names) with 1% of it endless, at any --count (at least 1),
one in each equal stretch of the batch's order at a place the seed picks (make_class). The two classes are
graded in turns (with, without, with, ...), R times each, as real `autograder grade --workers 1` processes
with the goldens already cached; the medians are compared, in wall clock and in the CPU time of the whole
process tree (which a shared machine changes less). An endless submission is graded again by the pool's
confirmer (runner/confirm.py); how many each run stopped there is printed, and the least any confirmation
could add to the wall under issue 29's class 3 (one-time work up to the case_timeout is never stopped: the
last endless one loops its whole case_timeout of CPU after the worker reaches it). bench_batch.py runs the
same measure on its own class (--endless-repeats).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_batch  # noqa: E402
import endless_timeline  # noqa: E402

from autograder.batch.confirm_trace import TRACE  # noqa: E402
from autograder.config import load_rubric  # noqa: E402

GOAL = 0.10  # of the one-worker batch's wall time without endless loops
SHARE = 0.01  # of the class's submissions that loop endlessly (issue 29's goal is stated at 1%)
CONFIRMED = "of CPU, its whole case_timeout"  # runner/endless.CONFIRMED: a loop the confirmation stopped


def make_class(dest: Path, count: int, seed: int, share: float = SHARE) -> list:
    """bench_batch's class of `count` (its mix, layouts and names), with round(share * count) endless submissions
    (at least 1), spread as a real class's would be, the same for a seed: the batch's order (by name) cut in as
    many equal stretches, one endless submission at a seeded place in each (so one falls in the last stretch, as
    often the last of several random ones does). Each replaces what was there; bench_batch's own endless ones
    (it makes at most 3) become correct ones."""
    made = bench_batch.make_class(dest, count, seed)
    order = sorted(range(len(made)), key=lambda i: (made[i].student.casefold(), made[i].student))
    n = max(1, round(share * count))
    rng = random.Random(f"endless-{seed}")
    chosen = {order[min(len(order) - 1, int((k + rng.random()) * len(order) / n))] for k in range(n)}
    solutions, edits = bench_batch.solution_texts(), bench_batch.ENDLESS
    for number, i in enumerate(sorted(chosen, key=order.index)):
        detail, file, old, new = edits[number % len(edits)]
        made[i] = _rewrite(dest, made[i], "endless", "package", detail, bench_batch._edit(solutions, file, old, new))
    for i, m in enumerate(made):
        if m.kind == "endless" and i not in chosen:
            made[i] = _rewrite(dest, m, "correct", m.layout, "", solutions)
    return made


def _rewrite(dest: Path, m, kind: str, layout: str, detail: str, texts: dict):
    (shutil.rmtree if m.path.is_dir() else os.remove)(m.path)
    path = bench_batch.write_submission(texts, layout, dest, m.student)
    return bench_batch.Made(m.student, kind, layout, detail, path)


def positions(made: list) -> list[int]:
    """Where the endless submissions fall in the batch's order (1 is graded first)."""
    order = sorted(made, key=lambda m: (m.student.casefold(), m.student))
    return [i + 1 for i, m in enumerate(order) if m.kind == "endless"]


def without_endless(subs: Path, made: list, dest: Path) -> list:
    """A copy of the class at `dest` with every endless submission replaced by a correct one, same layout."""
    shutil.copytree(subs, dest)
    replaced = [m for m in made if m.kind == "endless"]
    for m in replaced:
        target = dest / m.path.name
        (shutil.rmtree if target.is_dir() else os.remove)(target)
        bench_batch.write_submission(bench_batch.solution_texts(), m.layout, dest, m.student)
    return replaced


def measure(subs: Path, made: list, tmp: Path, env: dict, repeats: int) -> dict:
    """Medians of `repeats` one-worker batches of the class and of its twin without endless loops, in turns."""
    twin = tmp / "class-without-endless"
    endless = without_endless(subs, made, twin)
    wall: dict[str, list[float]] = {"with": [], "without": []}
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    confirmed: list[int] = []  # per run with: the submissions whose loop the confirmation stopped (the gradebook)
    runs: dict[str, list[dict]] = {"with": [], "without": []}  # each run's timeline (endless_timeline.py)
    machines: dict[str, list[dict]] = {"with": [], "without": []}
    loads: list[str] = []
    for r in range(repeats):
        for label, folder in (("with", subs), ("without", twin)):
            out, trace = tmp / f"out-endless-{label}-{r}", tmp / f"trace-{label}-{r}"
            loads.append(bench_batch.load())
            stat, start = endless_timeline.proc_stat(), time.monotonic()
            seconds, _ = bench_batch.cli_grade(folder, out, 1, {**env, TRACE: str(trace)})
            end = time.monotonic()
            wall[label].append(seconds)
            cpu[label].append(bench_batch.CPU[str(out)])
            runs[label].append(endless_timeline.timeline(endless_timeline.read_trace(trace), start, end))
            machines[label].append(endless_timeline.machine(stat, endless_timeline.proc_stat(), cpu[label][-1], seconds))
            if label == "with":
                confirmed.append((out / "gradebook.csv").read_text(encoding="utf-8").count(CONFIRMED))
            shutil.rmtree(out, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in wall.items()}
    timeout = load_rubric(bench_batch.RUBRIC_FILE).case_timeout
    last = max(positions(made)) / len(made) if endless else 0.0
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    extra = med["with"] - med["without"]
    pairs = sorted(w / o - 1 for w, o in zip(wall["with"], wall["without"]))  # each run with against the next without
    return {"endless": len(endless), "count": len(made), "repeats": repeats, "positions": positions(made),
            "wall": wall, "cpu": cpu, "median_wall": med, "median_cpu": med_cpu,
            "extra_wall": extra, "share_of_wall": extra / med["without"],
            "extra_cpu": med_cpu["with"] - med_cpu["without"],
            "share_of_cpu": (med_cpu["with"] - med_cpu["without"]) / med_cpu["without"],
            "per_endless_wall": extra / max(1, len(endless)), "confirmed": confirmed,
            "goal": GOAL, "goal_met": extra / med["without"] < GOAL, "pairs": pairs, "loads": loads,
            "timeline": endless_timeline.summary(runs, machines),
            # class 3's rule: the last endless submission's looping case computes its whole case_timeout of CPU in
            # its confirmation, which starts no sooner than the worker reaches it (about `last` of the batch's way)
            "least_tail": max(0.0, timeout - (1 - last) * med["without"]), "case_timeout": timeout}


def lines(numbers: dict) -> list[str]:
    n, e = numbers["count"], numbers["endless"]
    med, cpu = numbers["median_wall"], numbers["median_cpu"]
    return [
        f"endless loops' cost, one worker, {n} submissions, {e} endless ({e / n:.1%}), medians of "
        f"{numbers['repeats']} runs in turns (the endless ones at places {', '.join(map(str, numbers['positions']))} "
        f"of the {n} in the batch's order):",
        f"  wall: {med['with']:.2f} s with, {med['without']:.2f} s without: +{numbers['extra_wall']:.2f} s "
        f"= {numbers['share_of_wall']:+.1%} ({numbers['per_endless_wall']:.2f} s an endless submission)",
        f"  CPU (the process tree): {cpu['with']:.2f} s with, {cpu['without']:.2f} s without: "
        f"+{numbers['extra_cpu']:.2f} s = {numbers['share_of_cpu']:+.1%} ({numbers['extra_cpu'] / max(1, e):.2f} s an "
        "endless submission; what a loaded machine changes least: one worker computes one thing at a time)",
        f"  endless submissions stopped by the confirmation (still computing through the case_timeout in CPU), "
        f"each run: {', '.join(map(str, numbers['confirmed']))} of {e}",
        f"  each pair in turns (a run with, the next without): {statistics.median(numbers['pairs']):+.1%} median, "
        f"{numbers['pairs'][0]:+.1%} to {numbers['pairs'][-1]:+.1%}; load average (1/5 min) before each run: "
        f"{', '.join(numbers['loads'])}",
        f"  runs (wall s): with {', '.join(f'{s:.2f}' for s in numbers['wall']['with'])}; "
        f"without {', '.join(f'{s:.2f}' for s in numbers['wall']['without'])}",
        f"  runs (CPU s): with {', '.join(f'{s:.2f}' for s in numbers['cpu']['with'])}; "
        f"without {', '.join(f'{s:.2f}' for s in numbers['cpu']['without'])}",
        f"  the least any confirmation could add (class 3's rule: the last endless one, reached about "
        f"{max(numbers['positions'] or [0]) / n:.0%} of the way, loops its whole {numbers['case_timeout']:g} s of CPU "
        f"after that): {numbers['least_tail']:.2f} s = {numbers['least_tail'] / numbers['median_wall']['without']:.1%}"
        " of the wall (an estimate: the batch's rate taken as even)",
        *endless_timeline.lines(numbers["timeline"]),
        f"  goal (< {GOAL:.0%} of the wall): {'met' if numbers['goal_met'] else 'MISSED'}"
        f"{' (on a shared machine: not a measure of the kit)' if numbers['timeline']['shared'] > endless_timeline.SHARED else ''}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="submissions in the class (default 200); 1%% of them endless (at least 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each class (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="for the class's mix and order (default 1)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="endless-cost-") as tmp:
        tmp = Path(tmp)
        subs, cache = tmp / "class", tmp / "cache"
        subs.mkdir()
        env = {**os.environ, "AUTOGRADER_CACHE": str(cache)}
        env.pop("AUTOGRADER_HIDDEN_SEED", None)
        made = make_class(subs, args.count, args.seed)
        print(f"machine: {os.cpu_count()} cores, load average (1/5 min) {bench_batch.load()} before the runs")
        warm = tmp / "warm"
        shutil.copytree(bench_batch.corpus.SOLUTIONS, warm / "w000" / "micrograd",
                        ignore=shutil.ignore_patterns("__pycache__"))
        bench_batch.cli_grade(warm, tmp / "out-warm", 1, env)  # the goldens into the private cache, untimed
        numbers = measure(subs, made, tmp, env, args.repeats)
        print("\n".join(lines(numbers)))
        print(f"load average after: {bench_batch.load()}")
    return 0 if numbers["goal_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
