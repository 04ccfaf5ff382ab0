"""Forensics: whose variant does a submission's code solve?

While a submission of a class with [variants] is graded, its engine is also run on each operation
of the pool at a few fixed inputs (`sample_cases`: in the same child, never scored). Each variant
of the class predicts those numbers exactly (its operation, its constant: tasks.POOL's forward and
derivative). Two findings, each naming whose variant, with the inputs and the numbers:
- `instead`: its numbers fit another student's variant and not its own (a copy handed in as is);
- `beside`: it fits its own variant, and also holds another operation of the pool that computes
  another student's exact constant (a copy with its own operation added): the stubs hold the
  student's own operation alone, and no honest route leads to another student's constant (the pool's
  constants are never the textbook's, and a class's are drawn from 100,001 per operation).
A correct solution of its own variant, alone, is never flagged; nor is code that fits no variant at
all (a pasted lecture engine, a bug): that is for the grade to say, not forensics. Two students who
share a variant (operation and constant) fit each other's: that is never a finding.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from autograder.cases.model import Case
from autograder.tasks import VARIANT_OPS
from autograder.variants.model import Variant

PROGRAM = "ops.sample"
PREFIX = "forensics/"
FRACTIONS = (0.13, 0.37, 0.71)   # where in each operation's input range the samples are taken
UPSTREAM = 1.3
REL_TOL, ABS_TOL = 1e-6, 1e-9


def sample_inputs(op: str) -> list[float]:
    lo, hi = VARIANT_OPS[op].inputs
    return [round(lo + f * (hi - lo), 3) for f in FRACTIONS]


def sample_cases(pool: Sequence[str]) -> list[Case]:
    """One case per operation of the pool: run beside the graded cases, reported only as samples."""
    return [Case(f"{PREFIX}{op}", op, PROGRAM, {"op": op, "xs": sample_inputs(op), "upstream": UPSTREAM},
                 visibility="hidden", title=f"forensics: a.{op}() at {sample_inputs(op)}") for op in pool]


def samples_from(outcomes: dict) -> tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...]:
    """(op, outs, grads) of each sample case that ran and gave numbers (the others fit nothing)."""
    found = []
    for case_id, outcome in outcomes.items():
        if not case_id.startswith(PREFIX) or outcome.status != "ok":
            continue
        outs, grads = outcome.obs.get("out"), outcome.obs.get("a.grad")
        if isinstance(outs, list) and isinstance(grads, list):
            found.append((case_id[len(PREFIX):], tuple(map(float, outs)), tuple(map(float, grads))))
    return tuple(sorted(found))


def predicted(op: str, constant: float) -> tuple[list[float], list[float]]:
    """What a correct method of that variant gives at the sample inputs: outs, grads."""
    spec, xs = VARIANT_OPS[op], sample_inputs(op)
    return [spec.forward(x, constant) for x in xs], [spec.derivative(x, constant)[0] * UPSTREAM for x in xs]


def fits(sample, op: str, constant: float) -> bool:
    """Do a submission's samples hold that variant's numbers, every one?"""
    got = {s[0]: s for s in sample}.get(op)
    if got is None:
        return False
    outs, grads = predicted(op, constant)
    return all(math.isclose(g, w, rel_tol=REL_TOL, abs_tol=ABS_TOL) for g, w in zip(got[1] + got[2], outs + grads))


INSTEAD, BESIDE = "instead", "beside"


@dataclass(frozen=True)
class Flag:
    student: str          # whose submission
    own: str              # its own variant's operation, as a label
    sources: tuple[str, ...]   # the students whose variant it solves
    source_variant: str
    evidence: str         # the inputs, and the numbers it gave, theirs and its own variant's
    finding: str = INSTEAD     # INSTEAD of its own variant, or BESIDE it

    def says(self) -> str:
        whose = " and ".join(f"{s}'s" for s in self.sources)
        if self.finding == BESIDE:
            return (f"{self.student} also computes {whose} variant ({self.source_variant}), beside its own "
                    f"({self.own})")
        return f"{self.student} solves {whose} variant ({self.source_variant}), not its own ({self.own})"


def flags(reports, variants: Iterable[Variant] | None = None) -> list[Flag]:
    """Every submission of the class whose code computes another student's variant: instead of its own, or
    beside it. variants: the class's variants to compare with (each with its student; the roster's, say);
    by default the variants of the graded reports."""
    graded = [r for r in reports if r.variant is not None and r.variant.op]
    if variants is None:
        variants = [r.variant if r.variant.student else Variant(r.submission, r.variant.op, r.variant.constant)
                    for r in graded]
    known = [v for v in variants if v.op in VARIANT_OPS]
    out = []
    for r in graded:
        own = r.variant
        theirs = [v for v in known if (v.op, v.constant) != (own.op, own.constant) and fits(r.samples, v.op, v.constant)]
        if not theirs:
            continue
        finding = BESIDE if fits(r.samples, own.op, own.constant) else INSTEAD
        by_variant: dict[tuple[str, float], list[Variant]] = {}
        for v in theirs:    # students who share a variant: one flag naming them all
            by_variant.setdefault((v.op, v.constant), []).append(v)
        for same in by_variant.values():
            out.append(Flag(own.student or r.submission, own.op_label, tuple(dict.fromkeys(v.student for v in same)),
                            same[0].op_label, _evidence(r.samples, own, same[0], finding), finding))
    return out


def _evidence(sample, own, source, finding: str = INSTEAD) -> str:
    got = {s[0]: s for s in sample}[source.op]
    outs, grads = predicted(source.op, source.constant)
    line = (f"a.{source.op}() at a = {', '.join(f'{x:g}' for x in sample_inputs(source.op))} gave "
            f"{_nums(got[1])} with a.grad {_nums(got[2])} (out.grad = {UPSTREAM:g}): "
            f"{source.op_label} gives {_nums(outs)} and {_nums(grads)}")
    mine = {s[0]: s for s in sample}.get(own.op)
    if finding == BESIDE:
        line += (f"; its own a.{own.op}() gives {own.op_label}'s numbers too, and the stubs of its variant hold "
                 f"no a.{source.op}()")
    elif own.op == source.op or mine is None:
        line += f"; its own {own.op_label} gives {_nums(predicted(own.op, own.constant)[0])}"
        if mine is None:
            line += f", and its a.{own.op}() gave no numbers"
    else:
        line += f"; its own a.{own.op}() gave {_nums(mine[1])}, not {own.op_label}'s {_nums(predicted(own.op, own.constant)[0])}"
    return line


def _nums(xs) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in xs) + "]"
