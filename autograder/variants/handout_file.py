"""The variant a student's handout was written for: autograder/variant.json, beside its public goldens.

The handout's `check` grades that variant: the public goldens it ships are that variant's alone, so
a file edited into another student's variant finds no expected values to check against. Grading
never reads it: `autograder grade` draws each student's variant again from the roster's id and the
course's secret, which no handout holds.
"""
from __future__ import annotations

import json
from pathlib import Path

from autograder import paths
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.variants.assign import with_variant
from autograder.variants.model import Variant

VARIANT_FILE = "variant.json"   # inside the handout's autograder/ package


def write_variant_file(package: Path, variant: Variant) -> Path:
    path = Path(package) / VARIANT_FILE
    path.write_text(json.dumps(variant.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def handout_rubric(rubric: Rubric, package: Path = paths.KIT_ROOT / "autograder") -> Rubric:
    """The rubric a handout's check applies: with the handout's variant when it has one."""
    path = Path(package) / VARIANT_FILE
    if not path.is_file():
        return rubric
    try:
        variant = Variant.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, AttributeError) as err:
        raise UserError(f"{path}: not the variant file this handout came with ({err}): "
                        "ask your instructor for a fresh copy") from None
    return with_variant(rubric, variant)
