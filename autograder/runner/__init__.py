"""Run cases on a student's package in a sandboxed child process."""
from autograder.runner.posix import require_posix

require_posix()  # first: on Windows the modules below can't import; say so in one line

__all__ = ["Limits", "RunResult", "run_cases"]


def __getattr__(name: str):
    """Limits, RunResult and run_cases, imported when first asked for: a check starts its sandbox's zygote
    (runner/warm.py) before it needs the session's modules, which it then imports while the zygote boots."""
    if name == "Limits":
        from autograder.runner.limits import Limits

        return Limits
    if name in ("RunResult", "run_cases"):
        from autograder.runner import session

        return getattr(session, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
