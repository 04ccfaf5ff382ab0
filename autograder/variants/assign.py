"""A student's rubric: the course's, with that student's variant on it.

The variant is one value on the rubric (`Rubric.variant`), and what it changes of the
rubric follows here once: the extra operation's points, the hidden layers' activation.
Everything downstream (cases, goldens, scoring, reports) reads the rubric it is given.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from types import MappingProxyType

from autograder.config import Rubric, is_public_seed
from autograder.variants.draw import draw
from autograder.variants.model import Variant


def with_variant(rubric: Rubric, variant: Variant) -> Rubric:
    """The rubric that grades `variant` (the base assignment's rubric for the base variant)."""
    if variant.is_base and not variant.student:
        return rubric
    points = dict(rubric.points)
    for task in variant.tasks:
        points[task] = rubric.variants.points if rubric.variants else 0.0
    return replace(rubric, variant=variant, points=MappingProxyType(points),
                   activation=variant.activation or rubric.activation)


def variant_of(rubric: Rubric, student: str) -> Variant:
    """The student's variant: drawn from the course's secret (the base one without [variants])."""
    if rubric.variants is None:
        return Variant(student=student)
    return draw(rubric.variants, student, course_secret(rubric))


def course_secret(rubric: Rubric) -> str:
    """The secret the course's variants are drawn from (and its handouts' variant files signed with)."""
    fallback = None if is_public_seed(rubric.hidden_seed) else str(rubric.hidden_seed)
    return rubric.variants.secret_or(fallback)


def for_student(rubric: Rubric, student: str) -> Rubric:
    """The rubric that grades this student: the course's, unchanged without [variants]."""
    if rubric.variants is None:
        return rubric
    return with_variant(rubric, variant_of(rubric, student))


def variants_digest(rubric: Rubric) -> str:
    """A digest of what draws every student's variant: the [variants] table and the secret (hashed)."""
    config = rubric.variants
    secret = hashlib.sha256(course_secret(rubric).encode()).hexdigest()
    payload = [list(config.vary), list(config.pool), list(config.activations), config.points, secret]
    return hashlib.sha256(json.dumps(payload).encode()).hexdigest()[:32]
