"""Scores, computed only in the trusted parent from floats it parsed itself."""
from autograder.scoring.compare import compare
from autograder.scoring.score import crashed_report, score_run

__all__ = ["compare", "score_run", "crashed_report"]
