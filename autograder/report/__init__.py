"""One report model, many reporters."""
from autograder.report.model import CaseResult, Report, STATUSES, TaskResult

__all__ = ["Report", "TaskResult", "CaseResult", "STATUSES"]
