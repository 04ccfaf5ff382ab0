"""A submission, in whatever shape it came, as a private `micrograd` package; and a static look at it."""
from autograder.submission.load import Prepared, SubmissionError, prepare
from autograder.submission.static import static_check

__all__ = ["Prepared", "SubmissionError", "prepare", "static_check"]
