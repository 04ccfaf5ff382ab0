"""How fast `autograder grade DIR --out OUT` grades a realistic class.

    .venv/bin/python benchmarks/bench_batch.py [--count N] [--json PATH] [--sample N] [--seed S]

Makes --count (default 200) submissions in a temporary folder: ~40% correct
(copies of solutions/micrograd as a folder holding micrograd/, as loose
engine.py/nn.py/train.py, or as one .py file), ~35% with one bug
(tests/corpus/variants.py), ~15% unfinished (the exercises with the first few
tasks filled in), ~10% broken (a syntax error, an import of a missing module,
and 2-3 endless loops). Then times, as real `autograder` processes, wall clock:

  1. `grade DIR --out A --workers 1`   (a fresh out folder: everything graded)
  2. `grade DIR --out B --workers 2`   (fresh too)
  3. `grade DIR --out B --workers 2`   again: a resumed run with nothing to grade
  4. `grade DIR- --out D --workers 2`  the class without its endless loops (fresh): the run the
     goal is judged on (see Goal below)
  5. `grade DIR+2 --out C --workers 2`  the same class plus two hostile students (skip with
     --no-hostile): a slow burn (its cases sleep just under case_timeout) and a flood (a
     correct engine that floods the result pipe in every case). The batch should take
     about the honest class's time plus the slow burn's time budget (Limits.budget).

The goldens are computed beforehand into a private AUTOGRADER_CACHE (an untimed
warm-up grade of one submission), so both timed runs find them cached.

The reports record no duration (reports/*.json and the gradebook store have no
such field), so the time of one submission is measured apart: a sample of
--sample submissions graded one by one in this process with grading.grade_path;
the median is printed. The endless-loop submissions are graded in-process as
well, to say how much of the batch time they account for; and what they cost a
one-worker batch is measured whole (benchmarks/endless_cost.py: the class against
its twin with each endless submission replaced by a correct one, --endless-repeats
runs each, in turns, medians; goal under 10% of the wall).

Each run's CPU time (user + sys of the whole process tree) is printed beside its wall clock, which a
shared machine makes noisy; and benchmarks/profile_batch.py grades the sample (without the endless
loops) as a class of its own to say where that CPU goes: the main process by stage, the workers, the
sandboxed children.

The floor (benchmarks/floor.py: a pre-imported Python forked per submission into fresh namespaces as
uid 65534, the same cases with one round trip each) grades the class without its endless loops in turns
with the kit (--floor-repeats runs each; root only): their CPU a submission and the kit/floor ratio
(goal 1.5), measured in this one run.

Goal: >= 50 submissions/s with --workers 2 (issue 32), judged on run 4, the class without its endless
loops: an endless submission's confirmation is one case_timeout of CPU by issue 29's rule (one-time work up
to the timeout is never stopped), a cost benchmarks/endless_cost.py measures against issue 29's own goal;
runs 1-2 (with them) are still printed. Exit code 0 if met, 1 if not.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
RUBRIC_FILE = KIT / "assignment.toml"
sys.path.insert(0, str(KIT))
sys.path.insert(0, str(KIT / "tests" / "corpus"))
sys.path.insert(0, str(KIT / "benchmarks"))

import variants as corpus  # noqa: E402
from tree_cpu import run_counted  # noqa: E402

from autograder.exercises import strip_solutions  # noqa: E402
from autograder.tasks import TASK_IDS  # noqa: E402

GOAL = 50.0  # submissions per second with --workers 2 (issue 32; issue 23's was 30), the class without endless loops
HONEST = "workers 2, no endless"
FLOOR_GOAL = 1.5  # the kit's CPU a submission over the floor's (benchmarks/floor.py; issue 32)
FILES = ("engine.py", "nn.py", "train.py")
LAYOUTS = (("package", 0.5), ("loose", 0.3), ("single", 0.2))  # how students hand in

# ---- the class --------------------------------------------------------------------------------

_MSE = "    return sum((p - t)**2 for p, t in zip(predictions, targets)) / len(predictions)\n"
_ADD_OUT = "        out = Value(self.data + other.data, (self, other), '+')\n"
_TRAIN_DOC = '"""Training: a loss and a plain gradient-descent loop."""\n'

# (what, file, an exact snippet of solutions/micrograd/<file>, what the student wrote instead)
ENDLESS = (  # a while loop whose counter is never advanced
    ("train: step never advanced", "train.py", "    for _ in range(steps):\n",
     "    step = 0\n    while step < steps:  # forgot step += 1\n"),
    ("mse_loss: i never advanced", "train.py", _MSE,
     "    i, total = 0, 0\n"
     "    while i < len(predictions):  # forgot i += 1\n"
     "        total = total + (predictions[i] - targets[i])**2\n"
     "    return total / len(predictions)\n"),
    ("zero_grad: i never advanced", "nn.py", "        for p in self.parameters():\n            p.grad = 0\n",
     "        params, i = self.parameters(), 0\n"
     "        while i < len(params):  # forgot i += 1\n"
     "            params[i].grad = 0\n"),
)
SYNTAX_ERRORS = (
    ("nn.py: def without a colon", "nn.py",
     "    def parameters(self):\n        return []\n", "    def parameters(self)\n        return []\n"),
    ("engine.py: a parenthesis not closed", "engine.py", _ADD_OUT, _ADD_OUT.replace("'+')", "'+'")),
    ("train.py: a bracket not closed", "train.py", "    losses = []\n", "    losses = [\n"),
)
MISSING_IMPORTS = (  # (matplotlib would not do: the child stands in for display-only modules)
    ("engine.py: import numpy", "engine.py", "import math\n", "import math\nimport numpy as np\n"),
    ("nn.py: from utils import ...", "nn.py", "import random\n", "import random\nfrom utils import set_seed\n"),
    ("train.py: from helpers import ...", "train.py", _TRAIN_DOC, _TRAIN_DOC + "from helpers import make_moons\n"),
)


@dataclass(frozen=True)
class Made:
    student: str      # the id the batch gives it (the folder's or file's name)
    kind: str         # correct | bug | unfinished | syntax | missing-import | endless
    layout: str       # package | loose | single
    detail: str       # the variant id, the tasks filled, ...
    path: Path


def solution_texts() -> dict[str, str]:
    return {f: (corpus.SOLUTIONS / f).read_text(encoding="utf-8") for f in FILES}


def unfinished_texts(filled: set[str]) -> dict[str, str]:
    """The exercise files with the solution blocks of `filled` tasks kept, the rest stubbed."""
    texts = {}
    for name, text in solution_texts().items():
        lines, keep_open = [], False
        for line in text.splitlines(keepends=True):
            stripped = line.strip()
            if stripped.startswith("# BEGIN SOLUTION"):
                task = stripped[len("# BEGIN SOLUTION"):].split(":")[0].strip()
                keep_open = task in filled
                if keep_open:
                    continue
            elif stripped.startswith("# END SOLUTION") and keep_open:
                keep_open = False
                continue
            lines.append(line)
        texts[name] = strip_solutions("".join(lines), name)
    return texts


def _check_exercises_match() -> None:
    """Nothing filled must give exactly exercises/micrograd: the unfinished ones are real exercises."""
    for name, text in unfinished_texts(set()).items():
        if text != (corpus.EXERCISES / name).read_text(encoding="utf-8"):
            raise SystemExit(f"bench_batch: exercises/micrograd/{name} is not solutions/ stripped "
                             "(run `autograder exercises`)")


def _edit(texts: dict[str, str], file: str, old: str, new: str) -> dict[str, str]:
    assert texts[file].count(old) == 1, f"{file}: snippet found {texts[file].count(old)} times: {old!r}"
    return {**texts, file: texts[file].replace(old, new)}


def single_file(texts: dict[str, str]) -> str:
    """engine, nn and train in one file, as a student pastes them: imports on top, once."""
    imports: list[str] = []
    bodies: list[str] = []
    for name in FILES:
        lines = texts[name].splitlines(keepends=True)
        try:  # drop the module docstring (a syntax error leaves it)
            tree = ast.parse(texts[name])
            if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant):
                lines = lines[tree.body[0].end_lineno:]
        except SyntaxError:
            pass
        body = []
        for line in lines:
            if line.startswith("from micrograd"):
                continue
            if line.startswith(("import ", "from ")):
                if line not in imports:
                    imports.append(line)
                continue
            body.append(line)
        bodies.append(f"\n# ---- {name} ----\n" + "".join(body).strip("\n") + "\n")
    return '"""micrograd: Value, the neural-net library and training, in one file."""\n' + "".join(imports) \
        + "\n" + "\n".join(bodies)


def write_submission(texts: dict[str, str], layout: str, dest: Path, student: str) -> Path:
    if layout == "single":
        path = dest / f"{student}.py"
        path.write_text(single_file(texts), encoding="utf-8")
        return path
    folder = dest / student
    package = folder / "micrograd" if layout == "package" else folder
    package.mkdir(parents=True)
    for name, text in texts.items():
        (package / name).write_text(text, encoding="utf-8")
    if layout == "package":
        shutil.copy(corpus.SOLUTIONS / "__init__.py", package / "__init__.py")
    return folder


def plan(count: int) -> dict[str, int]:
    """How many of each kind, for `count` submissions."""
    correct, bug, unfinished = round(0.40 * count), round(0.35 * count), round(0.15 * count)
    broken = max(0, count - correct - bug - unfinished)
    endless = min(3, max(1, round(count / 100))) if broken >= 3 else 0
    syntax = (broken - endless + 1) // 2
    return {"correct": correct, "bug": bug, "unfinished": unfinished, "syntax": syntax,
            "missing-import": broken - endless - syntax, "endless": endless}


def make_class(dest: Path, count: int, seed: int) -> list[Made]:
    _check_exercises_match()
    rng = random.Random(seed)
    kinds = [kind for kind, n in plan(count).items() for _ in range(n)]
    rng.shuffle(kinds)  # endless loops land anywhere in the (sorted) order, as in a real class
    solutions = solution_texts()
    bugs = list(corpus.VARIANTS)
    rng.shuffle(bugs)
    made = []
    for i, kind in enumerate(kinds):
        student = f"s{i + 1:03d}"
        layout = rng.choices([n for n, _ in LAYOUTS], [w for _, w in LAYOUTS])[0]
        if kind == "correct":
            texts, detail = solutions, ""
        elif kind == "bug":
            variant = bugs[i % len(bugs)]
            texts, detail = {**solutions, variant.file: corpus.variant_source(variant)}, variant.id
        elif kind == "unfinished":
            done = rng.randint(2, len(TASK_IDS) - 2)  # the first tasks, in the handout's order
            filled = set(TASK_IDS[:done])
            texts, detail = unfinished_texts(filled), f"{done}/{len(TASK_IDS)} tasks"
        else:
            edits = {"syntax": SYNTAX_ERRORS, "missing-import": MISSING_IMPORTS, "endless": ENDLESS}[kind]
            n_made = sum(m.kind == kind for m in made)
            detail, file, old, new = edits[n_made % len(edits)]
            texts = _edit(solutions, file, old, new)
            if kind == "endless":
                layout = "package"
        made.append(Made(student, kind, layout, detail, write_submission(texts, layout, dest, student)))
    return made


SLOW_BURN = """

import sys as _sys
import time as _t

_seen = set()
_init = Value.__init__


def _slow_init(self, *args, **kwargs):
    # once per case (a case program's params dict, found up the stack), sleep just under case_timeout (3 s)
    frame = _sys._getframe(1)
    while frame is not None and not isinstance(frame.f_locals.get("p"), dict):
        frame = frame.f_back
    key = id(frame.f_locals["p"]) if frame is not None else None
    if key not in _seen:
        _seen.add(key)
        _t.sleep(2.85)
    _init(self, *args, **kwargs)


Value.__init__ = _slow_init
"""

FLOOD = """

import os as _os

_init = Value.__init__
_lines = b'{"garbage": true}\\n' * 4096


def _flooding_init(self, *args, **kwargs):
    for fd in range(3, 256):  # the result pipe is one of them
        try:
            _os.write(fd, _lines)
        except OSError:
            pass
    _init(self, *args, **kwargs)


Value.__init__ = _flooding_init
"""


def add_hostile(dest: Path, solutions: dict[str, str]) -> None:
    """Two students who try to hold the batch: zz-slow-burn and zz-flood (sorted last)."""
    for student, tail in (("zz-slow-burn", SLOW_BURN), ("zz-flood", FLOOD)):
        write_submission({**solutions, "engine.py": solutions["engine.py"] + tail}, "package", dest, student)


def without_endless(made: list[Made], dest: Path) -> int:
    """A copy of the class in dest without its endless loops (the run the goal is judged on); how many it holds."""
    dest.mkdir()
    kept = [m for m in made if m.kind != "endless"]
    for m in kept:
        (shutil.copytree if m.path.is_dir() else shutil.copy)(m.path, dest / m.path.name)
    return len(kept)


# ---- running the CLI --------------------------------------------------------------------------

CPU: dict[str, float] = {}  # out folder -> CPU seconds of its run: the CLI, its workers, children, sandboxes
CPU_COUNTED = [""]  # how (tree_cpu.run_counted): a cgroup counts every process, getrusage only the waited-for


def cli_grade(subs: Path, out: Path, workers: int, env: dict) -> tuple[float, subprocess.CompletedProcess]:
    argv = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out),
            "--workers", str(workers), "--config", str(RUBRIC_FILE)]
    seconds, CPU[str(out)], CPU_COUNTED[0], done = run_counted(argv, cwd=KIT, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: some submissions could not be graded, which is expected
        raise SystemExit(f"bench_batch: {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return seconds, done


def read_reports(out: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / "reports").glob("*.json"))}


def grade_in_process(made: list[Made], cache: Path) -> dict[str, float]:
    """Seconds of grading.grade_path per submission, one after the other in this process."""
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    rubric, store = load_rubric(RUBRIC_FILE), GoldenStore(cache_dir=cache)
    seconds = {}
    for m in made:
        started = time.perf_counter()
        grade_path(m.path, rubric=rubric, include_hidden=True, store=store, name=m.student)
        seconds[m.student] = time.perf_counter() - started
    return seconds


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


# ---- main -------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="submissions in the class (default 200)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    parser.add_argument("--sample", type=int, default=30,
                        help="submissions graded one by one in-process for the per-submission median (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="for the class's mix and order (default 1)")
    parser.add_argument("--no-hostile", action="store_true",
                        help="skip run 4 (the class plus a slow-burn and a flooding student)")
    parser.add_argument("--endless-repeats", type=int, default=3, metavar="R",
                        help="one-worker runs of the class and of its twin without endless loops, each (default 3; "
                             "0 skips): what endless loops cost (benchmarks/endless_cost.py)")
    parser.add_argument("--floor-repeats", type=int, default=3, metavar="R",
                        help="runs each of the kit and of the floor (benchmarks/floor.py) on the class without its "
                             "endless loops, in turns, for the kit/floor CPU ratio (default 3; 0 skips)")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")

    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        tmp = Path(tmp)
        subs, cache = tmp / "class", tmp / "cache"
        subs.mkdir()
        env = {**os.environ, "AUTOGRADER_CACHE": str(cache)}
        env.pop("AUTOGRADER_HIDDEN_SEED", None)  # the seed is assignment.toml's
        made = make_class(subs, args.count, args.seed)
        kinds = {k: sum(m.kind == k for m in made) for k in plan(args.count)}
        layouts = {n: sum(m.layout == n for m in made) for n, _ in LAYOUTS}
        print(f"class: {len(made)} submissions: " + ", ".join(f"{n} {k}" for k, n in kinds.items()))
        print("layouts: " + ", ".join(f"{n} {k}" for k, n in layouts.items()))
        print(f"machine: {os.cpu_count()} cores, load average (1/5 min) {load()} before the runs")
        if os.environ.get("PYTHONDONTWRITEBYTECODE") and not any((KIT / "autograder" / "__pycache__").glob("*.pyc")):
            print("note: PYTHONDONTWRITEBYTECODE is set and the kit is not byte-compiled (make setup does it): "
                  "the CLI and every worker compile it afresh")

        # warm-up, untimed: goldens into the private cache, the kit's files into the OS cache
        warm = tmp / "warm"
        warm.mkdir()
        shutil.copytree(corpus.SOLUTIONS, warm / "w000" / "micrograd",
                        ignore=shutil.ignore_patterns("__pycache__"))
        cli_grade(warm, tmp / "out-warm", 1, env)

        honest = tmp / "class-honest"  # the class without its endless loops: the goal's run, the floor's class
        honest_count = without_endless(made, honest)

        timings, loads, cpu = {}, {}, {}
        for label, folder, out, workers in (("workers 1", subs, tmp / "out-1", 1),
                                            ("workers 2", subs, tmp / "out-2", 2),
                                            ("resume, workers 2", subs, tmp / "out-2", 2),
                                            (HONEST, honest, tmp / "out-4", 2)):
            before = load()
            timings[label], done = cli_grade(folder, out, workers, env)
            cpu[label] = CPU[str(out)]
            loads[label] = f"{before} -> {load()}"
            if label.startswith("resume") and "0 graded now" not in done.stdout:
                print(f"warning: the resumed run graded something:\n{done.stdout}")
        if not args.no_hostile:
            hostile_class = tmp / "class-hostile"
            shutil.copytree(subs, hostile_class)
            add_hostile(hostile_class, solution_texts())
            before = load()
            timings["workers 2, + slow burn + flood"], _ = cli_grade(hostile_class, tmp / "out-3", 2, env)
            loads["workers 2, + slow burn + flood"] = f"{before} -> {load()}"
            hostile_reports = read_reports(tmp / "out-3")
            if len(hostile_reports) != len(made) + 2:
                raise SystemExit(f"bench_batch: {len(hostile_reports)} reports for {len(made) + 2} submissions")
        endless_cost = None
        if args.endless_repeats > 0 and any(m.kind == "endless" for m in made):
            from endless_cost import measure

            endless_cost = measure(subs, made, tmp, env, args.endless_repeats)
        floor_found = None
        if args.floor_repeats > 0 and os.geteuid() == 0:  # the floor's namespaces and setuid need root
            from floor import compare

            floor_found = compare(honest, tmp / "floor-runs", env, args.floor_repeats)
        reports = read_reports(tmp / "out-2")
        reports_1 = read_reports(tmp / "out-1")
        if len(reports) != len(made) or len(reports_1) != len(made):
            raise SystemExit(f"bench_batch: {len(reports_1)} and {len(reports)} reports "
                             f"for {len(made)} submissions")
        sandboxes = sorted({r["sandbox"] for r in reports.values()})
        differing = sorted(s for s in reports if reports[s]["score"] != reports_1[s]["score"])

        # per-submission time, in-process (the reports don't record one)
        rng = random.Random(args.seed + 1)
        sample = rng.sample(made, min(args.sample, len(made)))
        endless = [m for m in made if m.kind == "endless"]
        per = grade_in_process(sample + [m for m in endless if m not in sample], cache)
        sample_times = [per[m.student] for m in sample]
        median = statistics.median(sample_times)

        # where a batch's CPU goes, by process and stage: the sample (no endless loop) as a class of its own
        from profile_batch import split

        split_class = tmp / "split-class"
        split_class.mkdir()
        for m in sample:
            if m.kind != "endless":
                (shutil.copytree if m.path.is_dir() else shutil.copy)(m.path, split_class / m.path.name)
        where = split(split_class, cache, tmp / "split", workers=2)

    rate1 = len(made) / timings["workers 1"]
    rate2 = len(made) / timings["workers 2"]
    rate_honest = honest_count / timings[HONEST]
    endless_seconds = sum(per[m.student] for m in endless)
    ordinary = [per[m.student] for m in sample if m.kind != "endless"]
    estimated_grading = statistics.mean(ordinary or [median]) * (len(made) - len(endless)) + endless_seconds
    by_kind = {}
    for kind in kinds:
        scores = [reports[m.student]["score"] / reports[m.student]["max_score"]
                  for m in made if m.kind == kind]
        times = [per[m.student] for m in sample + endless if m.kind == kind]
        if scores:
            by_kind[kind] = {"count": len(scores), "mean_score": statistics.mean(scores),
                             "full_marks": sum(s == 1 for s in scores),
                             "median_seconds": statistics.median(times) if times else None,
                             "timed": len(set(m.student for m in sample + endless if m.kind == kind))}

    print()
    print(f"{'kind':16} {'count':>5} {'mean score':>10} {'full marks':>10} {'one grade (s)':>14}")
    for kind, k in by_kind.items():
        t = f"{k['median_seconds']:.3f} (n={k['timed']})" if k["median_seconds"] is not None else "-"
        print(f"{kind:16} {k['count']:5d} {k['mean_score']:10.0%} {k['full_marks']:10d} {t:>14}")
    print()
    print(f"{'run':22} {'wall (s)':>9} {'subs/s':>8}  load 1/5 min before -> after")
    for label in timings:
        n = honest_count if label == HONEST else len(made)
        rate = f"{n / timings[label]:8.2f}" if not label.startswith("resume") else f"{'-':>8}"
        print(f"{label:22} {timings[label]:9.2f} {rate}  {loads[label]}")
    print()
    print(f"submissions/s, workers 1: {rate1:.2f}")
    print(f"submissions/s, workers 2: {rate2:.2f}")
    print(f"submissions/s, workers 2, the {honest_count} without endless loops: {rate_honest:.2f} "
          f"(CPU {cpu[HONEST] / honest_count * 1000:.1f} ms a submission)")
    print(f"speed-up 1 -> 2 workers: {timings['workers 1'] / timings['workers 2']:.2f}x")
    per_cpu = cpu["workers 2"] / len(made)  # what the load of other work on the machine changes least
    bound = "at most" if CPU_COUNTED[0].startswith("every") else "a bound above what is possible:"
    print(f"CPU time per submission, workers 2 (the CLI, its workers, children and sandboxes, counted by "
          f"{CPU_COUNTED[0]}): {per_cpu * 1000:.1f} ms: {bound} {os.cpu_count() / per_cpu:.1f} submissions/s "
          f"on {os.cpu_count()} idle cores (workers 1: {cpu['workers 1'] / len(made) * 1000:.1f} ms)")
    if floor_found is not None:
        from floor import lines as floor_lines

        print("\n".join(floor_lines(floor_found, FLOOR_GOAL)))
    print(f"median per submission (grade_path in-process, {len(sample)} sampled): {median:.3f} s "
          f"(min {min(sample_times):.3f}, max {max(sample_times):.3f})")
    print(f"resumed run (nothing to grade): {timings['resume, workers 2']:.2f} s")
    print(f"endless loops: {len(endless)} submission(s), {endless_seconds:.1f} s of grading in-process "
          f"= {endless_seconds / timings['workers 1']:.0%} of the workers-1 wall time "
          f"({', '.join(f'{m.student} {m.detail} {per[m.student]:.1f} s' for m in endless) or 'none'})")
    if endless_cost is not None:
        from endless_cost import lines as endless_lines

        print("\n".join(endless_lines(endless_cost)))
    print(f"batch overhead (workers-1 wall minus estimated in-process grading of all): "
          f"{timings['workers 1'] - estimated_grading:.1f} s")
    from profile_batch import print_split

    print("\nwhere a batch's CPU goes (benchmarks/profile_batch.py: the sampled submissions but the endless loops, "
          "graded as one class):")
    print_split(where, indent="  ")
    from profile_one import profile  # where one submission's time goes, stage by stage

    print("\nwhere one correct submission's time goes (benchmarks/profile_one.py, medians of 5):")
    for stage, seconds in profile(corpus.SOLUTIONS.parent).items():
        print(f"  {stage:40} {seconds * 1000:8.1f} ms")
    from child_costs import breakdown, lines  # the child's side in CPU time: zygote and bwrap per child

    print("\n" + "\n".join(lines(breakdown(corpus.SOLUTIONS.parent, repeat=5))))
    if not args.no_hostile:
        from autograder.config import load_rubric
        from autograder.grading import limits_for, select_cases

        rubric = load_rubric(RUBRIC_FILE)
        cases = select_cases(rubric, include_hidden=True)
        budget = limits_for(rubric).budget(len(cases), len({c.task for c in cases}))
        extra = timings["workers 2, + slow burn + flood"] - timings["workers 2"]
        print(f"with one slow burn and one flood: {timings['workers 2, + slow burn + flood']:.1f} s vs "
              f"{timings['workers 2']:.1f} s without (+{extra:.1f} s; a submission's time budget is {budget:g} s); "
              f"slow burn {hostile_reports['zz-slow-burn']['score']:g}, flood {hostile_reports['zz-flood']['score']:g}"
              " points")
    print(f"sandbox level: {', '.join(sandboxes)}")
    if differing:
        print(f"warning: scores differ between the workers-1 and workers-2 runs for {', '.join(differing)}")
    met = rate_honest >= GOAL
    print(f"goal (>= {GOAL:g} submissions/s with 2 workers, judged on the class without its endless loops, whose "
          f"cost benchmarks/endless_cost.py measures): {'met' if met else 'MISSED'} ({rate_honest:.2f}/s)")

    if args.json:
        numbers = {
            "count": len(made), "kinds": kinds, "layouts": layouts, "cores": os.cpu_count(),
            "seconds": timings, "load": loads,
            "submissions_per_second": {"workers_1": rate1, "workers_2": rate2, "workers_2_no_endless": rate_honest},
            "no_endless_count": honest_count,
            "speedup_1_to_2": timings["workers 1"] / timings["workers 2"],
            "cpu_seconds": cpu, "cpu_seconds_per_submission_workers_2": per_cpu,
            "median_seconds_per_submission": median, "sample_seconds": sample_times,
            "resume_seconds": timings["resume, workers 2"],
            "endless": {"count": len(endless), "seconds": endless_seconds,
                        "share_of_workers_1_wall": endless_seconds / timings["workers 1"]},
            "endless_cost": endless_cost,
            "batch_overhead_seconds_workers_1": timings["workers 1"] - estimated_grading,
            "cpu_split": {k: where[k] for k in ("count", "ms_per_submission", "main_process_ms")},
            "by_kind": by_kind, "sandbox": sandboxes, "scores_differing": differing,
            "goal_submissions_per_second": GOAL, "goal_met": met, "floor": floor_found,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(numbers, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
