"""The child's side of one submission's cost, in CPU time as well as wall clock (a shared machine's
wall clock is noisy; its CPU time much less so).

    .venv/bin/python benchmarks/child_costs.py [PATH] [--repeat N]

For the solutions (or PATH), with the sandbox level this machine uses: run_cases with no case (the
child's start and the import of the student's modules) and with every public and hidden case, each
--repeat times, with the child forked by the zygote and (AUTOGRADER_ZYGOTE=0) started by its own
bwrap. CPU time: the grading process's (getrusage SELF), the child's and its bwrap's (getrusage
CHILDREN for a bwrap per child; for the zygote, its own and its reaped submissions', as it reports them
at each reap, and its bwrap's from /proc).
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.grading import limits_for, select_cases  # noqa: E402
from autograder.runner import levels  # noqa: E402
from autograder.runner.session import run_cases  # noqa: E402
from autograder.submission.load import prepare  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _zygotes_seconds() -> float:
    """The zygotes' CPU time: the zygote and every submission it reaped (what it said at the last reap,
    getrusage's microseconds), and its bwrap's two processes (from /proc, in clock ticks: they wait)."""
    total = 0.0
    for zygote in getattr(levels.current(), "zygotes", {}).values():
        total += zygote.cpu
        pid = zygote.proc.pid
        for one in [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]:
            stat = Path(f"/proc/{one}/stat").read_bytes()
            if b"bwrap" in stat[: stat.rfind(b")")]:
                total += sum(int(f) for f in stat[stat.rfind(b")") + 2:].split()[11:13]) / TICK
    return total


def _cpu(who) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(run, repeat: int) -> tuple[float, float, float]:
    """(wall, the grading process's CPU, the child's and its sandbox's CPU) of run(), seconds, means."""
    run()  # warm: the zygote started, the files in the OS cache
    self0, children0, zygote0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), _zygotes_seconds()
    started = time.perf_counter()
    for _ in range(repeat):
        run()
    wall = time.perf_counter() - started
    parent = _cpu(resource.RUSAGE_SELF) - self0
    child = _cpu(resource.RUSAGE_CHILDREN) - children0 + _zygotes_seconds() - zygote0
    return wall / repeat, parent / repeat, child / repeat


def breakdown(path: Path = KIT / "solutions", repeat: int = 10) -> dict[str, tuple[float, float, float]]:
    """{stage: (wall, parent CPU, child CPU)} in seconds, for the child forked by the zygote and by bwrap."""
    rubric = load_rubric(KIT / "assignment.toml")
    cases = select_cases(rubric, include_hidden=True)
    stages = {}
    saved = os.environ.get("AUTOGRADER_ZYGOTE")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = prepare(path, Path(tmp) / "submission")
        options = dict(limits=limits_for(rubric), files=prepared.files, forbidden=rubric.forbidden_imports,
                       allowed=rubric.allowed_imports)
        try:
            for how, value in (("zygote", "1"), ("bwrap per child", "0")):
                os.environ["AUTOGRADER_ZYGOTE"] = value
                start = measure(lambda: run_cases(prepared.root, [], **options), repeat)
                whole = measure(lambda: run_cases(prepared.root, cases, **options), repeat)
                stages[f"child start + student import ({how})"] = start
                stages[f"{len(cases)} cases ({how})"] = tuple(w - s for w, s in zip(whole, start))
        finally:
            if saved is None:
                os.environ.pop("AUTOGRADER_ZYGOTE", None)
            else:
                os.environ["AUTOGRADER_ZYGOTE"] = saved
    return stages


def lines(stages: dict[str, tuple[float, float, float]]) -> list[str]:
    level = levels.current()
    out = [f"the child's side of one submission (sandbox {level.name}, {type(level).__name__}), ms, means:",
           f"  {'':48} {'wall':>7} {'CPU parent':>11} {'CPU child+sandbox':>18}"]
    for stage, (wall, parent, child) in stages.items():
        out.append(f"  {stage:48} {wall * 1000:7.1f} {parent * 1000:11.1f} {child * 1000:18.1f}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    print("\n".join(lines(breakdown(args.path, args.repeat))))
    print(f"load average (1/5 min): {os.getloadavg()[0]:.2f}/{os.getloadavg()[1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
