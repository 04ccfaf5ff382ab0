"""A submission, in whatever shape it came, as a private `micrograd` package."""
from autograder.submission.load import Prepared, SubmissionError, holds_nothing, prepare

__all__ = ["Prepared", "SubmissionError", "holds_nothing", "prepare"]
