"""The lines a student's handout README gets about its variant."""
from __future__ import annotations

from autograder.tasks import TITLE
from autograder.variants.model import Variant


def readme_lines(variant: Variant) -> str:
    whose = f"{variant.student}'s" if variant.student else "this"
    lines = ["", "## Your variant", "",
             f"This is {whose} version of the assignment: {variant.label}."]
    if variant.op:
        lines += ["", f"Besides the tasks above, `micrograd/engine.py` has one more: `{variant.op}` "
                      f"({TITLE[variant.op]}), its constant written in the method. "
                      f"`autograder check --task {variant.op}` checks it alone."]
    if variant.worked is not None:
        lines += ["", "The lecture's worked examples (Karpathy's graph L = (a*b + c) * f and his neuron) come with "
                      "numbers of your own in your checks: each case's derivation redoes the lecture's steps on them."]
    if variant.activation:
        lines += ["", f"Your MLP's hidden layers use `{variant.activation}`: the checks build them with "
                      f"`activation='{variant.activation}'`."]
    lines += ["", "Your grade is computed on your variant, found from your id in the course's roster, "
                  "whatever this folder says: solving another student's variant earns nothing here."]
    return "\n".join(lines) + "\n"
