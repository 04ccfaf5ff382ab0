"""What each sandbox level costs: run_cases on the solutions, every public and hidden case.

For each level this machine can give (bubblewrap, uid, basic; AUTOGRADER_SANDBOX
forces each in turn), the median (and its difference from basic's), min and max wall
time of --repeats calls of run_cases, each one child for all the cases (one bwrap
start per child, not per case), and the one-off cost of its probe. The levels take
turns run by run, so that a busy machine's drift falls on all of them alike. The uid
level needs a Python that uid 65534 can run: where this one lives under /root, the
system Python of the same version is measured too (--system), with basic next to it
for a like-for-like comparison.

Bubblewrap run by root gives the child its own uid (65534 outside too: a copy of the
submission and setpriv's exec per child); --fallback measures it without (uid 0 outside)
as "bubblewrap-uid0".

--packages measures what showing the child the allowed packages costs (numpy: a folder of
links, or binds, on its sys.path; not imported): a check (the public cases) of a numpy-free
engine with allowed_imports = ["numpy"] and = [], per level, taking turns.

Usage:  .venv/bin/python benchmarks/bench_sandbox.py [--repeats 10] [--system] [--fallback] [--packages]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.grading import limits_for, select_cases  # noqa: E402
from autograder.runner import levels, run_cases  # noqa: E402


def probe_seconds(name: str, python: str) -> tuple[bool, str, float]:
    levels._get.cache_clear()
    if name == "bubblewrap":
        from autograder.runner.levels.bwrap import probe as bwrap_probe
        bwrap_probe.probe.cache_clear()
    started = time.perf_counter()
    level, why = levels._get(name, python)
    return level is not None, why, time.perf_counter() - started


UID0 = "bubblewrap-uid0"  # bubblewrap without the child's own uid (levels/bwrap/level.py): --fallback


def bench(python: str, cases, rubric, repeats: int, fallback: bool = False) -> list[str]:
    """One line per level; the levels take turns, run by run, so that a busy machine's drift
    falls on all of them alike."""
    from autograder.runner import session
    from autograder.runner.levels.bwrap import probe as bwrap_probe

    available, lines, names = {}, {}, list(levels.NAMES)
    for name in levels.NAMES:
        ok, why, probe = probe_seconds(name, python)
        if ok:
            available[name] = (probe, [])
        else:
            lines[name] = f"{name:10}  unavailable: {why}"
    fixed = {}
    if fallback and "bubblewrap" in available:
        own_userns = bwrap_probe.own_userns
        bwrap_probe.own_userns = lambda: (None, "--fallback")
        ok, why, probe = probe_seconds("bubblewrap", python)
        bwrap_probe.own_userns = own_userns
        fixed[UID0] = levels._get("bubblewrap", python)[0]
        levels._get.cache_clear()
        bwrap_probe.probe.cache_clear()
        available[UID0] = (probe, [])
        names.insert(1, UID0)
    levels.interpreter = lambda: python
    current = session.current_level
    for run in range(repeats + 1):  # the first round warms caches (bytecode, imports): not counted
        for name, (_probe, times) in available.items():
            os.environ[levels.ENV] = "bubblewrap" if name == UID0 else name
            session.current_level = (lambda: fixed[UID0]) if name == UID0 else current
            started = time.perf_counter()
            result = run_cases(KIT / "solutions", cases, limits=limits_for(rubric))
            if run:
                times.append(time.perf_counter() - started)
            statuses = {o.status for o in result.outcomes.values()}
            assert result.sandbox == name.split("-")[0] and statuses == {"ok"}, (result.sandbox, statuses)
    session.current_level = current
    base = statistics.median(available["basic"][1])
    for name, (probe, times) in available.items():
        median = statistics.median(times)
        lines[name] = (f"{name:15}  median {median * 1000:6.1f} ms  (+{(median - base) * 1000:5.1f})   "
                       f"min {min(times) * 1000:6.1f}   max {max(times) * 1000:6.1f}   probe {probe * 1000:4.0f} ms")
    if "bubblewrap" in available:
        level = levels._get("bubblewrap", python)[0]
        lines["bubblewrap"] += "   (own uid 65534)" if level.userns is not None else "   (uid 0 outside)"
    return [lines[name] for name in names]


def bench_packages(rubric, repeats: int) -> list[str]:
    """One line per level: the median check with numpy shown, and with nothing shown."""
    cases = select_cases(rubric, include_hidden=False)
    here = [name for name in levels.NAMES if levels._get(name, levels.interpreter())[0] is not None]
    shown = {("numpy",): "numpy shown", (): "nothing shown"}
    times: dict[tuple, list[float]] = {(name, allowed): [] for name in here for allowed in shown}
    for run in range(repeats + 1):  # the first round warms caches: not counted
        for (name, allowed), spent in times.items():
            os.environ[levels.ENV] = name
            started = time.perf_counter()
            result = run_cases(KIT / "solutions", cases, limits=limits_for(rubric), allowed=allowed)
            if run:
                spent.append(time.perf_counter() - started)
            assert {o.status for o in result.outcomes.values()} == {"ok"}
    return [f"{name:10}  {shown[allowed]:13}  median {statistics.median(spent) * 1000:6.1f} ms   "
            f"min {min(spent) * 1000:6.1f}   max {max(spent) * 1000:6.1f}"
            for (name, allowed), spent in times.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--system", action="store_true",
                        help="also measure with the system Python of this version (for the uid level)")
    parser.add_argument("--fallback", action="store_true",
                        help="also measure bubblewrap without the child's own uid (uid 0 outside), run as root")
    parser.add_argument("--packages", action="store_true",
                        help="measure a check with the allowed packages (numpy) shown to the child, and without")
    args = parser.parse_args()
    rubric = load_rubric(KIT / "assignment.toml")
    if args.packages:
        print(f"a check (public cases) of solutions/, {args.repeats} runs each\n")
        for line in bench_packages(rubric, args.repeats):
            print("   ", line, flush=True)
        os.environ.pop(levels.ENV, None)
        return
    cases = select_cases(rubric, include_hidden=True)
    pythons = [levels.interpreter()]
    system = os.path.realpath(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if args.system and os.path.isfile(system) and system not in pythons:
        pythons.append(system)
    print(f"run_cases on solutions/: {len(cases)} cases (public + hidden), {args.repeats} runs per level\n")
    for python in pythons:
        print(python)
        for line in bench(python, cases, rubric, args.repeats, args.fallback):
            print("   ", line, flush=True)
    os.environ.pop(levels.ENV, None)


if __name__ == "__main__":
    main()
