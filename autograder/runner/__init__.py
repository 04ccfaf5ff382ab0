"""Run cases on a student's package in a sandboxed child process."""
from autograder.runner.posix import require_posix

require_posix()  # first: on Windows the modules below can't import; say so in one line

from autograder.runner.limits import Limits  # noqa: E402
from autograder.runner.session import RunResult, run_cases  # noqa: E402

__all__ = ["Limits", "RunResult", "run_cases"]
