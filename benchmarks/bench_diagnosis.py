"""What naming the mistake costs a check (issue 13: under 10% of a check's time).

    .venv/bin/python benchmarks/bench_diagnosis.py [--runs N]

A check (grade_path, public cases, goldens cached, as `autograder check` does after start-up) of
the solutions and of five single-bug variants, with the diagnosis on and off (off: diagnose()
returns nothing), interleaved, --runs times each: medians and their ratio. Then the parts: the
parent's matching per check, the child's probes (three more closure calls per ops.local case,
timed in-process on the solutions), and the one-off cost of the predictions next to the goldens.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(KIT), str(KIT / "tests" / "corpus")]

MUTANTS = ("mul-assign", "tanh-uses-input", "backward-no-visited", "neuron-relu", "train-wrong-sign")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    import variants as corpus

    import autograder.diagnosis as diagnosis
    from autograder.child.programs import ops
    from autograder.config import load_rubric
    from autograder.engines import package_api
    from autograder.goldens import GoldenStore, compute
    from autograder.grading import grade_path, select_cases

    rubric = load_rubric(KIT / "assignment.toml")
    cases = select_cases(rubric, include_hidden=False)
    real_diagnose = diagnosis.diagnose
    spent = []

    def timed_diagnose(*a, **k):
        start = time.perf_counter()
        try:
            return real_diagnose(*a, **k)
        finally:
            spent.append(time.perf_counter() - start)

    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        store = GoldenStore(cache_dir=work / "goldens")
        store.goldens(cases, activation=rubric.activation)
        subjects = {"solutions": KIT / "solutions"}
        subjects.update({name: corpus.build(corpus.by_id()[name], work / name) for name in MUTANTS})
        on, off, matching = {n: [] for n in subjects}, {n: [] for n in subjects}, {n: [] for n in subjects}
        for _ in range(args.runs):
            for name, path in subjects.items():
                for enabled, times in ((True, on), (False, off)):
                    diagnosis.diagnose = timed_diagnose if enabled else (lambda *a, **k: ())
                    spent.clear()
                    start = time.perf_counter()
                    grade_path(path, rubric=rubric, include_hidden=False, store=store)
                    times[name].append(time.perf_counter() - start)
                    if enabled:
                        matching[name].append(sum(spent))
        diagnosis.diagnose = real_diagnose

    print(f"a check (public cases, in-process, goldens cached), median of {args.runs} runs")
    print(f"{'submission':24} {'diagnosis on':>13} {'off':>9} {'ratio':>7} {'matching':>10}")
    ratios = []
    for name in subjects:
        a, b = statistics.median(on[name]), statistics.median(off[name])
        ratios.append(a / b)
        print(f"{name:24} {a * 1000:10.0f} ms {b * 1000:6.0f} ms {a / b:7.3f} {statistics.median(matching[name]) * 1000:7.2f} ms")
    print(f"median ratio on/off: {statistics.median(ratios):.3f} (goal: under 1.10)")

    # the child's share: the probes, timed in-process on the solutions
    api = package_api(KIT / "solutions", "solutions")
    local = [c for c in cases if c.program == "ops.local"]
    real_probe = ops.probe

    def run_local(n=200):
        start = time.perf_counter()
        for _ in range(n):
            for c in local:
                ops.local(api, c.params)
        return (time.perf_counter() - start) / n
    with_probes = statistics.median(run_local() for _ in range(5))
    ops.probe = lambda *a: None
    without = statistics.median(run_local() for _ in range(5))
    ops.probe = real_probe
    print(f"probes in the child: {len(local)} ops.local cases take {with_probes * 1e3:.2f} ms with probes, "
          f"{without * 1e3:.2f} ms without ({(with_probes - without) * 1e3:.2f} ms a check)")

    # once per kit version: the predictions computed next to the goldens
    start = time.perf_counter()
    compute.compute_goldens(cases, torch_check=False)
    full = time.perf_counter() - start
    real_predictions = compute._predictions
    compute._predictions = lambda case, models: {}
    start = time.perf_counter()
    compute.compute_goldens(cases, torch_check=False)
    bare = time.perf_counter() - start
    compute._predictions = real_predictions
    print(f"goldens of the {len(cases)} public cases (reference only, no torch): {bare * 1e3:.0f} ms, "
          f"{full * 1e3:.0f} ms with every mistake's predictions (once, then cached or shipped)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
