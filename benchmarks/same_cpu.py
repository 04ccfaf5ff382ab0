"""What a round trip over a pipe costs between two processes left to the scheduler, and held on one CPU.

    .venv/bin/python benchmarks/same_cpu.py [--trips N] [--repeat R]

The shape of the grader's conversation with its child, with nothing else in it: a parent writes a
line, a forked child reads it and answers a line, the parent waits (epoll) and reads it; N trips.
Prints, medians of R runs, the CPU time a trip costs the parent and the child (os.times) and its
wall clock, first with both free to run on any CPU, then with both held on one
(autograder/runner/same_cpu.py does the same for a grading thread and its children). On an idle
machine, and a virtual one above all, the first wakes a sleeping CPU at every step; on a busy one
the two modes come closer.
"""
from __future__ import annotations

import argparse
import os
import select
import statistics
import time

REQUEST = b'{"case": ' + b"x" * 200 + b', "nonce": "' + b"0" * 32 + b'"}\n'
ANSWER = b"\n" + b"y" * 150 + b"\n"


def trips(count: int, cpu: int | None) -> tuple[float, float, float]:
    """(parent CPU, child CPU, wall) in microseconds a trip."""
    mask = os.sched_getaffinity(0)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    try:
        job_r, job_w = os.pipe()
        res_r, res_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(job_w), os.close(res_r)
            while os.read(job_r, 1 << 16):
                os.write(res_w, ANSWER)
            os._exit(0)
        os.close(job_r), os.close(res_w)
        poll = select.epoll()
        poll.register(res_r, select.EPOLLIN)
        before, started = os.times(), time.perf_counter()
        for _ in range(count):
            os.write(job_w, REQUEST)
            poll.poll(1.0)
            os.read(res_r, 1 << 16)
        wall = time.perf_counter() - started
        os.close(job_w)
        os.waitpid(pid, 0)
        after = os.times()
        poll.close()
        os.close(res_r)
    finally:
        os.sched_setaffinity(0, mask)
    parent = after.user + after.system - before.user - before.system
    child = after.children_user + after.children_system - before.children_user - before.children_system
    return parent / count * 1e6, child / count * 1e6, wall / count * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    cpus = sorted(os.sched_getaffinity(0))
    print(f"a round trip over pipes, {args.trips} trips, medians of {args.repeat}; {len(cpus)} CPUs, "
          f"load {os.getloadavg()[0]:.2f} before")
    print(f"  {'':28} {'parent CPU':>11} {'child CPU':>10} {'wall':>8}   (us a trip)")
    for label, cpu in (("free (the scheduler's)", None), ("held on one CPU", cpus[0])):
        runs = [trips(args.trips, cpu) for _ in range(args.repeat)]
        parent, child, wall = (statistics.median(r[i] for r in runs) for i in range(3))
        print(f"  {label:28} {parent:11.1f} {child:10.1f} {wall:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
