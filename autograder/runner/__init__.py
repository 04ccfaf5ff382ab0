"""Run cases on a student's package in a sandboxed child process."""
from autograder.runner.limits import Limits
from autograder.runner.session import RunResult, run_cases

__all__ = ["Limits", "RunResult", "run_cases"]
