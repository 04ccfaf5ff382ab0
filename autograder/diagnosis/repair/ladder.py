"""What a student is shown of a named mistake: the rung of the course's ladder ([feedback] diagnosis).

    where  only the line a repair changed: "Look again at engine.py line 50: a change there makes all 10 mul
           cases pass." (nothing where no repair was proven: there is no line to point at)
    rule   the catalogue's sentence (which rule is broken, and the fix in words), and where, when proven
    fix    the rule, and the fix itself when proven: "The fix: `+=` in place of `=` on engine.py line 50.
           With it all 10 mul cases pass. The new line: `me.grad += rhs.data * res.grad`."
A fix is never written unless the repair made every case of the task pass.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from autograder.report.model import Diagnosis, Place

LEVELS = ("where", "rule", "fix")


@dataclass(frozen=True)
class Proof:
    """A repair that made every case of the task pass: where it changed the student's code, and how."""
    where: Place
    lines: tuple[int, ...]     # every line it changed in that file (a notebook's: within the cell)
    change: str                # in words: "`+=` in place of `=`"
    now: str                   # the first line it wrote
    cases: int                 # the task's cases that then passed
    together: bool = False     # proven only with the task's other named mistakes repaired too


def shown(found: Diagnosis, proof: Proof | None, task: str, level: str) -> Diagnosis | None:
    """The diagnosis as the course shows it (None: nothing to show at this level)."""
    if proof is None:
        return None if level == "where" else found
    proven = replace(found, proven=True, where=proof.where)
    if level == "where":
        return replace(proven, message=f"Look again at {proof.where.said(proof.lines)}: a change there makes all "
                                       f"{proof.cases} {task} cases pass.")
    if level == "rule":
        return proven
    also = ", and the other change named here," if proof.together else ""
    written = f" The new line: `{proof.now}`." if proof.now and len(proof.now) <= 90 and proof.now not in proof.change \
        else ""
    # short sentences, the student's own new line in one of its own: a next step a student reads at a glance
    # (tests/corpus/test_next_step_economy.py: at most 160 words, Flesch-Kincaid grade 9)
    return replace(proven, fix=f"The fix: {proof.change} on {proof.where.said(proof.lines)}. With it{also} all "
                               f"{proof.cases} {task} cases pass.{written}")
