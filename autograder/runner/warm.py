"""A check's sandbox started before its grading needs it: its boot overlaps the grading process's own work.

A student's check is one submission: at the bubblewrap level with a zygote (run by root), the zygote's
bwrap, interpreter and imports take about as long as the grading process's imports, case building and
goldens. `warm` starts that zygote first, from the same thread, with the same case-program folder and
allowed packages run_cases will ask for (so the very zygote is the one its first child forks from), on
the CPU slot that thread grades on (same_cpu.py: the zygote and the children it forks inherit that CPU,
as when run_cases starts it). Another level starts nothing here: each child there is its own interpreter,
started with its job. Nothing changes but when the zygote starts: the isolation, limits and uid are its own.
"""
from __future__ import annotations

from typing import Sequence

from autograder.runner.bytecode import compile_once
from autograder.runner.levels import current as current_level
from autograder.runner.packages import package_paths
from autograder.runner.same_cpu import one_cpu
from autograder.runner.sandbox import CHILD_MAIN


def warm(*, forbidden: Sequence[str], allowed: Sequence[str]) -> None:
    """Start the sandbox's zygote that run_cases(..., forbidden=, allowed=) with no case-program folder uses."""
    level = current_level()
    start = getattr(level, "warm", None)
    if start is None:
        return
    compile_once(str(CHILD_MAIN.parent))  # as Child does first: the child can't write its own bytecode
    packages = package_paths(tuple(name for name in allowed if name not in forbidden))
    with one_cpu():
        start(None, packages)
