"""How long a student waits for `autograder check`: the whole command, a fresh process each time.

    .venv/bin/python benchmarks/bench_check.py [--runs N] [--handout] [--student-python PATH] [--terminal]

Runs `python -m autograder check solutions` --runs times (default 21) from the kit's root, each a new
interpreter as a student's is (imports, the sandbox level, the parser, grading, the report), after one
untimed run that fills the goldens' cache and writes the kit's bytecode (PYTHONDONTWRITEBYTECODE is
removed from the commands' environment: a student's Python writes it, and compiling the kit's modules
on every run would cost about 0.1 s); prints the median and quartiles of the wall clock, and the
load average before and after (the machine may be shared: quote the load with the figures), and the
median CPU time (user + sys of the command and the processes it waited for), which load changes less, and
the same figures for `python -c pass`, the interpreter's start alone, as a yardstick of the machine's load. With
--handout it also writes a handout (`autograder handout`) into a temporary folder, puts the solutions'
micrograd/ in it, and times `python -m autograder check` there, the kit as a student has it; with
--student-python PATH (the python of a venv built from that handout's requirements.txt, as its README says) it
runs that check with the student's own interpreter. Its stdout is a pipe, as in an IDE's run pane or a script,
where the report is written without rich; --terminal also times each check with its stdout a terminal (a pty),
where rich writes it in colour, as a student at a terminal sees it.

Goal: a median of at most 0.15 s on the solutions (issue 32). Exit code 0 if met, 1 if not.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.15


def timed(cwd: Path, args: list[str], runs: int, command: list[str] | None = None, *, python: str = sys.executable,
          terminal: bool = False) -> tuple[list[float], list[float]]:
    """The wall clock of each run, and its CPU (user + sys of the command and every process it waited for)."""
    command = command or [python, "-m", "autograder", *args]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as a student's Python
    subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)  # untimed: goldens, bytecode
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        code, err = run_at_terminal(command, cwd, env) if terminal else run_piped(command, cwd, env)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if code not in (0, 1):
            raise SystemExit(f"{' '.join(command)} in {cwd}: exit {code}\n{err}")
    return times, cpu


def run_piped(command: list[str], cwd: Path, env: dict) -> tuple[int, str]:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    return done.returncode, done.stderr.decode()


def run_at_terminal(command: list[str], cwd: Path, env: dict) -> tuple[int, str]:
    """The command with its stdout a pseudo-terminal (read to its end), stderr a pipe."""
    import pty

    main, side = pty.openpty()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=side, stderr=subprocess.PIPE)
    os.close(side)
    while True:
        try:
            if not os.read(main, 1 << 16):
                break
        except OSError:  # the other side closed: the command has ended
            break
    err = proc.stderr.read().decode()
    proc.wait()
    os.close(main)
    return proc.returncode, err


def say(name: str, measured: tuple[list[float], list[float]]) -> float:
    times, cpu = measured
    q1, median, q3 = statistics.quantiles(times, n=4) if len(times) > 1 else (times[0],) * 3
    print(f"{name}: median {median:.3f} s (quartiles {q1:.3f} - {q3:.3f} s; min {min(times):.3f}, "
          f"{len(times)} runs); CPU median {statistics.median(cpu):.3f} s")
    return median


def handout_folder(tmp: Path) -> Path:
    out = tmp / "handout"
    subprocess.run([sys.executable, "-m", "autograder", "handout", str(out)], cwd=ROOT, check=True,
                   capture_output=True)
    shutil.rmtree(out / "micrograd")
    shutil.copytree(ROOT / "solutions" / "micrograd", out / "micrograd")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--handout", action="store_true", help="also time check in a handout")
    parser.add_argument("--student-python", help="the handout's check run by this Python (a student's venv's)")
    parser.add_argument("--terminal", action="store_true", help="also time each check with stdout a terminal")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    median = say("check solutions", timed(ROOT, ["check", "solutions"], args.runs))
    if args.terminal:
        say("check solutions at a terminal", timed(ROOT, ["check", "solutions"], args.runs, terminal=True))
    # the floor under any Python command on this machine now (a loaded machine slows both alike)
    say("python -c pass (the interpreter alone)", timed(ROOT, [], args.runs, [sys.executable, "-c", "pass"]))
    if args.handout or args.student_python:
        python = args.student_python or sys.executable
        with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
            folder = handout_folder(Path(tmp))
            say(f"check in a handout ({python})", timed(folder, ["check"], args.runs, python=python))
            if args.terminal:
                say("check in a handout at a terminal", timed(folder, ["check"], args.runs, python=python,
                                                              terminal=True))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"goal: median <= {GOAL} s on the solutions: {'met' if median <= GOAL else 'not met'}")
    return 0 if median <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
