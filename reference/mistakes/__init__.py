"""Classic backprop mistakes as engines: what a student who made one would observe.

`predictions(case)` runs a case's program on the lecture's engine (reference/mistakes/engine.py,
written as students write it) and on every model of a mistake of the case's task (models/),
in the trusted process, next to the goldens. The diagnosis compares a failing task's
observations with them; it never runs student code.
"""
from reference.mistakes.models import CORRECT, MODELS, Model

__all__ = ["CORRECT", "MODELS", "Model"]
