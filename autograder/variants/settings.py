"""`[variants]` in assignment.toml: which dimensions vary, from what, and the course's secret.

    [variants]
    vary = ["op", "activation"]           # which dimensions vary (default); "seed" too: each student's own
                                          # public random cases (their goldens cost ~10 s of CPU per student, once);
                                          # "worked": the lecture's worked examples on numbers of their own
    pool = ["sigmoid", "softplus", "log", "sin", "leaky_relu"]   # the extra operations drawn from (the default;
                                          # "power" too: a ** k with the student's own exponent k)
    activations = ["tanh", "relu"]        # the hidden layers' activations drawn from
    points = 5                            # the extra operation's points
    # secret = "..."  # or AUTOGRADER_VARIANTS_SECRET; else the course's own hidden_seed

The secret decides every student's variant: with it, anyone can compute whose variant is
whose, so it never leaves the instructor's side (handouts get this table without it). A
handout's table carries instead `key = "<hex>"`, the course's public key (variants/signature.py),
the only key its variant.json is checked against.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Mapping

from autograder.errors import UserError
from autograder.tasks import ACTIVATIONS, VARIANT_OPS

SECRET_ENV = "AUTOGRADER_VARIANTS_SECRET"
DIMENSIONS = ("op", "activation", "seed", "worked")
# the pool drawn from when [variants] names none: the first five operations, as when variants began, so
# that a course's students keep their variants when the kit adds an operation ("power": name it in `pool`)
DEFAULT_POOL = ("sigmoid", "softplus", "log", "sin", "leaky_relu")


class VariantsError(UserError, ValueError):
    """A [variants] table that can't be used, or no secret to draw from: one line."""


@dataclass(frozen=True)
class VariantsConfig:
    vary: tuple[str, ...] = ("op", "activation")
    pool: tuple[str, ...] = DEFAULT_POOL
    activations: tuple[str, ...] = ACTIVATIONS
    points: float = 5.0
    secret: str | None = None
    key: str | None = None      # the course's public key (Ed25519, hex): a handout's, written by `handout`

    def secret_or(self, fallback: str | None) -> str:
        """The secret variants are drawn from: the environment's, the table's, else `fallback`."""
        secret = os.environ.get(SECRET_ENV) or self.secret or fallback
        if os.environ.get(SECRET_ENV) and len(secret) < 8:
            raise VariantsError(f"{SECRET_ENV} must be at least 8 characters: a short secret can be guessed")
        if not secret:
            raise VariantsError(f"variants need the course's secret: set {SECRET_ENV}, secret in [variants], "
                                "or a hidden_seed of your own in assignment.toml")
        return secret


def parse(table, source: str) -> VariantsConfig:
    """The [variants] table of `source`, checked."""
    if not isinstance(table, Mapping):
        raise VariantsError(f"{source}: [variants] must be a table")
    known = {"vary", "pool", "activations", "points", "secret", "key"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise VariantsError(f"{source}: [variants] has unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    kwargs: dict = {}
    for key, allowed in (("vary", DIMENSIONS), ("pool", tuple(VARIANT_OPS)), ("activations", ACTIVATIONS)):
        if key in table:
            kwargs[key] = _names(table[key], allowed, f"{source}: [variants] {key}")
    if "points" in table:
        points = table["points"]
        if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
            raise VariantsError(f"{source}: [variants] points must be a number >= 0, not {points!r}")
        kwargs["points"] = float(points)
    if "secret" in table:
        if not isinstance(table["secret"], str) or len(table["secret"]) < 8:
            raise VariantsError(f"{source}: [variants] secret must be a string of at least 8 characters")
        kwargs["secret"] = table["secret"]
    if "key" in table:
        key = table["key"]
        if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{64}", key):
            raise VariantsError(f"{source}: [variants] key must be the course's public key, 64 hex digits, "
                                "as `autograder handout` writes it")
        kwargs["key"] = key
    return VariantsConfig(**kwargs)


def _names(value, allowed: tuple[str, ...], where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise VariantsError(f"{where} must be a non-empty list of names from {', '.join(allowed)}")
    wrong = [v for v in value if v not in allowed]
    if wrong:
        raise VariantsError(f"{where}: {', '.join(map(repr, wrong))} unknown; choose from {', '.join(allowed)}")
    return tuple(dict.fromkeys(value))


def to_toml(config: VariantsConfig, *, secret: str | None = None) -> list[str]:
    """The table's lines; the secret only when given (an instructor-side edition: never a student's)."""
    def names(xs):
        return "[" + ", ".join(f'"{x}"' for x in xs) + "]"
    return ["[variants]", f"vary = {names(config.vary)}", f"pool = {names(config.pool)}",
            f"activations = {names(config.activations)}", f"points = {config.points:g}",
            *([f"secret = {json.dumps(secret)}"] if secret else []),
            *([f'key = "{config.key}"'] if config.key else [])]
