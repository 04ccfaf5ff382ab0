"""A student's variant, drawn from the course's secret and the student's id.

HMAC-SHA256 keyed with the secret, over the student's id: the same id always gets the same
variant, and without the secret nobody can tell one id's variant from another's. Each
dimension reads its own bytes of the digest, so turning one dimension off leaves the
others as they were. The constant of the extra operation is one of 100,001 values
evenly spaced over its range (tasks.POOL), so two students of a class of hundreds
rarely share one; forensics names both when they do.
"""
from __future__ import annotations

import hashlib
import hmac

from autograder.tasks import VARIANT_OPS
from autograder.variants.model import Variant
from autograder.variants.settings import VariantsConfig

STEPS = 100_000
_DOMAIN = b"backprop-kit variant v1\x00"


def student_key(student: str) -> str:
    """The id as drawn from: surrounding blanks and letter case never change a variant."""
    return student.strip().casefold()


def draw(config: VariantsConfig, student: str, secret: str) -> Variant:
    digest = hmac.new(secret.encode(), _DOMAIN + student_key(student).encode(), hashlib.sha256).digest()

    def number(i: int) -> int:
        return int.from_bytes(digest[4 * i: 4 * i + 4], "big")

    op, constant = "", 0.0
    if "op" in config.vary:
        op = config.pool[number(0) % len(config.pool)]
        lo, hi = VARIANT_OPS[op].between
        constant = round(lo + (hi - lo) * (number(1) % (STEPS + 1)) / STEPS, 6)
    activation = config.activations[number(2) % len(config.activations)] if "activation" in config.vary else ""
    seed = number(3) if "seed" in config.vary else None
    worked = number(4) if "worked" in config.vary else None
    return Variant(student=student.strip(), op=op, constant=constant, activation=activation, seed=seed, worked=worked)
