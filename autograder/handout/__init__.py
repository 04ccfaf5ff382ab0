"""`autograder handout OUT`: what students get, and nothing hidden."""
from autograder.handout.write import HANDOUT_GOLDENS, write_handout

__all__ = ["write_handout", "HANDOUT_GOLDENS"]
