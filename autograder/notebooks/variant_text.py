"""What a notebook edition says of a student's variant: its opening lines, and its extra operation's hint."""
from __future__ import annotations

from autograder.cases.common import fmt
from autograder.cases.hints import HINTS
from autograder.cases.variant_op import HINT
from autograder.tasks import TITLE, VARIANT_OPS
from autograder.variants.model import Variant


def variant_intro(variant: Variant) -> str:
    """Lines opening a student's own notebook ("" for the base assignment's)."""
    if variant.is_base and not variant.student:
        return ""
    whose = f"{variant.student}'s" if variant.student else "this"
    lines = ["", f"**Your variant.** This notebook is {whose} version of the assignment: {variant.label}."]
    if variant.op:
        lines.append(f"Part 1 has one task more than the lecture's: `{variant.op}` ({TITLE[variant.op]}), its "
                     "constant written in the method.")
    if variant.activation:
        lines.append(f"Your MLP's hidden layers use `{variant.activation}`: the checks build them with "
                     f"`activation='{variant.activation}'`.")
    lines.append("Your grade is computed on your own variant, found from your id in the course's roster: solving "
                 "another student's variant earns nothing here.")
    return "\n".join(lines) + "\n"


def task_hint(task: str, variant: Variant) -> str:
    """The hint a task's question shows: the kit's, or for the variant's extra operation, its own."""
    if task in HINTS:
        return HINTS[task]
    return HINT.format(op=task, name=VARIANT_OPS[task].constant, c=fmt(variant.constant))


def drawn_at_grading(rubric) -> str:
    """Lines opening a notebook released to the whole class whose grading draws each student's variant
    (nbgrader's: activation and random cases, never an operation of one's own)."""
    if rubric.variants is None:
        return ""
    varied = [{"activation": "the hidden layers' activation (one of " + ", ".join(rubric.variants.activations) + ")",
               "seed": "the random cases' inputs"}[d] for d in rubric.variants.vary]
    return ("\n**Your variant.** Your grade's cases are drawn for you from your id in this course: "
            + " and ".join(varied) + f". The checks in this notebook use the course's ({rubric.activation} hidden "
            "layers); write Neuron so that every activation works.\n")
