"""Goldens: what each case must observe, computed in the trusted process and cached."""
from autograder.goldens.compute import KitError, compute_goldens
from autograder.goldens.store import GoldenStore, cases_digest

__all__ = ["KitError", "compute_goldens", "GoldenStore", "cases_digest"]
