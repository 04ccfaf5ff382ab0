"""Why a child process ended, in the words of a case's message."""
from __future__ import annotations

import signal


def describe_exit(status: int, during: str = "during this case") -> str:
    """Why a child ended, in the words of a case's message."""
    if status >= 0:
        return f"the process exited with code {status} {during}"
    signum = -status
    name = {signal.SIGKILL: "killed by signal 9: memory limit?",
            signal.SIGXCPU: f"killed by signal {int(signal.SIGXCPU)} (SIGXCPU): the CPU time limit",
            signal.SIGSEGV: "crashed with signal 11 (SIGSEGV): a recursion too deep?",
            signal.SIGXFSZ: f"killed by signal {int(signal.SIGXFSZ)} (SIGXFSZ): a file larger than the limit"}
    try:
        default = f"killed by signal {signum} ({signal.Signals(signum).name})"
    except ValueError:
        default = f"killed by signal {signum}"
    return name.get(signum, default)
