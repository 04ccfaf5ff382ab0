"""The variant a student's handout was written for: autograder/variant.json, beside its public goldens.

The file holds the variant signed by the course (variants/signature.py: Ed25519, a key derived from the
course's secret). The key that checks it is not in it: the handout's assignment.toml carries the
course's public key (`[variants] key`, written by `handout`), and the instructor's side derives it from
the secret. The handout's `check` grades that variant, and only while the course's key verifies it: a
file edited into another student's variant, or signed again with a key of the student's own, is refused
in one line, even where the reference is importable and goldens could be computed for any variant.
Grading never reads it: `autograder grade` draws each student's variant again from the roster's id and
the course's secret, which no handout holds.
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from autograder import paths
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.variants.settings import VariantsError

VARIANT_FILE = "variant.json"   # inside the handout's autograder/ package


def write_variant_file(package: Path, rubric: Rubric) -> Path:
    """package/variant.json: the rubric's variant, signed with the course's key."""
    from autograder.variants.assign import course_secret
    from autograder.variants.signature import signed

    path = Path(package) / VARIANT_FILE
    path.write_text(json.dumps(signed(rubric.variant, course_secret(rubric)), indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    return path


def with_course_key(rubric: Rubric) -> Rubric:
    """The rubric a handout's assignment.toml is written from: its [variants] with the course's public key."""
    from autograder.variants.assign import course_secret
    from autograder.variants.signature import public_key_hex

    if rubric.variants is None:
        return rubric
    return replace(rubric, variants=replace(rubric.variants, key=public_key_hex(course_secret(rubric))))


def course_key(rubric: Rubric) -> str | None:
    """The course's public key a variant.json is checked against: the rubric's own `[variants] key`, else
    the one derived from the course's secret (the instructor's side); None where there is neither."""
    if rubric.variants is None:
        return None
    if rubric.variants.key:
        return rubric.variants.key
    from autograder.variants.assign import course_secret
    from autograder.variants.signature import public_key_hex

    try:
        return public_key_hex(course_secret(rubric))
    except VariantsError:
        return None


def handout_rubric(rubric: Rubric, package: Path = paths.KIT_ROOT / "autograder") -> Rubric:
    """The rubric a handout's check applies: with the handout's variant when it has one."""
    path = Path(package) / VARIANT_FILE
    if not path.is_file():  # a handout without variants (and the kit itself): nothing of the variants' imported
        return rubric
    from autograder.variants.assign import with_variant
    from autograder.variants.signature import BadSignature, verified

    try:
        key = course_key(rubric)
        if key is None:
            raise UserError(f"{path}: this handout's assignment.toml names no course key to check it with "
                            "([variants] key): ask your instructor for a fresh copy of the handout")
        variant = verified(json.loads(path.read_text(encoding="utf-8")), key)
    except ImportError:
        raise UserError(f"{path}: reading your variant needs the `cryptography` package: "
                        "pip install -r requirements.txt") from None
    except BadSignature as err:
        raise UserError(f"{path} is not the variant file this handout came with ({err}): check grades only the "
                        "variant your instructor wrote; ask them for a fresh copy") from None
    except (OSError, ValueError, TypeError, AttributeError) as err:
        raise UserError(f"{path}: not the variant file this handout came with ({err}): "
                        "ask your instructor for a fresh copy") from None
    return with_variant(rubric, variant)
