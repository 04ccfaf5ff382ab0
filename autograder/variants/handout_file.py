"""The variant a student's handout was written for: autograder/variant.json, beside its public goldens.

The file holds the variant signed by the course (variants/signature.py: Ed25519, a key derived from the
course's secret). The handout's `check` grades that variant, and only while the signature holds it: a
file edited into another student's variant is refused in one line, even where the reference is
importable and goldens could be computed for any variant. Grading never reads it: `autograder grade`
draws each student's variant again from the roster's id and the course's secret, which no handout holds.
"""
from __future__ import annotations

import json
from pathlib import Path

from autograder import paths
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.variants.assign import course_secret, with_variant
from autograder.variants.signature import BadSignature, signed, verified

VARIANT_FILE = "variant.json"   # inside the handout's autograder/ package


def write_variant_file(package: Path, rubric: Rubric) -> Path:
    """package/variant.json: the rubric's variant, signed with the course's key."""
    path = Path(package) / VARIANT_FILE
    path.write_text(json.dumps(signed(rubric.variant, course_secret(rubric)), indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    return path


def handout_rubric(rubric: Rubric, package: Path = paths.KIT_ROOT / "autograder") -> Rubric:
    """The rubric a handout's check applies: with the handout's variant when it has one."""
    path = Path(package) / VARIANT_FILE
    if not path.is_file():
        return rubric
    try:
        variant = verified(json.loads(path.read_text(encoding="utf-8")))
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
