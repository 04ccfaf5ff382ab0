"""`autograder exercises`: write exercises/ from solutions/, or check they match."""
from autograder.exercises.markers import MarkerError, strip_solutions
from autograder.exercises.sync import check_exercises, write_exercises

__all__ = ["MarkerError", "strip_solutions", "write_exercises", "check_exercises"]
