"""The limits of a child process: what Limits holds, and the rlimits set between fork and exec.

Every sandbox level sets them (memory, CPU, file size, open files, no core files,
processes), and the child dies with its grading process (PR_SET_PDEATHSIG).
"""
from __future__ import annotations

import ctypes
import math
import os
import resource
import signal
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    case_timeout: float = 3.0          # seconds of wall time per case, from the previous result line
    import_timeout: float = 5.0        # seconds to start and import the student's package
    memory_mb: int = 1024              # address space
    file_size_mb: int = 1              # largest file the child may write
    output_cap: int = 4000             # characters of a case's prints kept
    max_result_line: int = 1_000_000   # bytes; longer lines are dropped
    max_case_bytes: int = 8_000_000    # bytes on the result pipe while one case is awaited: past it, a flood
    max_case_lines: int = 2_000        # lines that are not the awaited result, per case: past it, a flood
    submission_budget: float = 0.0     # seconds of wall time for all of a submission's cases; 0: derived
    one_time_work: float = 0.3         # seconds of CPU a process may spend on work done once (endless.py)
    open_files: int = 64
    stack_mb: int = 256                # deep enough for the child's recursion limit of 10,000

    def budget(self, n_cases: int, n_tasks: int) -> float:
        """The wall-clock budget of one submission: the rubric's, else enough for every task to time
        out twice (the per-task limit) or for a tenth of the cases to run their full timeout."""
        if self.submission_budget > 0:
            return self.submission_budget
        return self.import_timeout + self.case_timeout * max(2 * n_tasks, math.ceil(n_cases / 10), 1)

    def cpu_seconds(self, n_cases: int) -> int:
        """CPU time for a child running n_cases: a backstop, the wall-time deadlines come first."""
        return math.ceil(self.import_timeout + self.case_timeout * max(n_cases, 1)) + 1


def set_limits(limits: Limits, cpu: int, *, nproc: bool = True) -> None:
    """In the child, between fork and exec: the rlimits. Must not raise.

    nproc=False leaves RLIMIT_NPROC alone (bwrap forks itself; its seccomp filter stops fork).
    """
    for which, value in rlimit_values(limits, cpu, nproc=nproc):
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    _die_with_parent()


def rlimit_values(limits: Limits, cpu: int, *, nproc: bool = True) -> list[tuple[int, int]]:
    """(resource, value) of every rlimit set_limits sets (the zygote's child sets them itself)."""
    mb = 1 << 20
    return [
        (resource.RLIMIT_AS, limits.memory_mb * mb),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * mb),
        *([(resource.RLIMIT_NPROC, 0)] if nproc else []),  # no fork (ignored for root)
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_STACK, limits.stack_mb * mb),
    ]


def _die_with_parent() -> None:
    """SIGKILL this process when the grading process dies, even if it is killed."""
    try:
        parent = os.getppid()
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


_PR_SET_PDEATHSIG = 1
