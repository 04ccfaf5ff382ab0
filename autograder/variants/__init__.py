"""Per-student variants of the assignment: the value, the draw, the roster, the forensics."""
from autograder.variants.model import BASE, Variant

__all__ = ["BASE", "Variant"]
