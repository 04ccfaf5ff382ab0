"""Write the student handout: the exercises, the check tool, the public goldens.

What goes in: exercises/micrograd/, a copy of the autograder package (it holds
no answers: the reference engine is a separate package that is never copied),
the public goldens, the rubric without its hidden seed, a student README, and
the pytest route. What never goes in: reference/, solutions/, the torch adapter
(a complete engine), hidden cases or their seed, and anything else of the kit.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from autograder import paths
from autograder.config import Rubric, rubric_toml
from autograder.errors import UserError
from autograder.files import write_text_atomic
from autograder.goldens import GoldenStore, cases_digest
from autograder.grading import golden_values, select_cases
from autograder.variants.handout_file import with_course_key, write_variant_file
from autograder.variants.readme import readme_lines
from autograder.goldens.store import case_fingerprints, write_goldens

HANDOUT_GOLDENS = "public_goldens.json"   # inside the handout's autograder/ package
_TEMPLATES = Path(__file__).resolve().parent / "templates"
_SKIP_NAMES = shutil.ignore_patterns("__pycache__", "*.pyc", HANDOUT_GOLDENS, "variant.json", "*.tmp")


# Parts of the package students must not get: the engines module holds the
# torch adapter, a complete engine of its own (selfcheck needs it); batch grading,
# the LMS layouts and grade files, the handout writer and the exercise generator are the
# instructor's (the CLI says so if a student tries them). tests/handout checks the set.
_INSTRUCTOR_ONLY = {"engines", "selfcheck.py", "batch", "handout", "exercises", "editions", "lms", "gradescope", "notebooks",
                    "prairielearn"}


def _skip(folder: str, names: list[str]) -> set[str]:
    skipped = set(_SKIP_NAMES(folder, names))
    if Path(folder) == paths.KIT_ROOT / "autograder":
        skipped |= _INSTRUCTOR_ONLY & set(names)
    if Path(folder) == paths.KIT_ROOT / "autograder" / "cli":
        skipped |= {"batch.py", "lms.py", "lms_push.py"} & set(names)  # `grade --out`, `lms`: an instructor's commands
    if Path(folder) == paths.KIT_ROOT / "autograder" / "variants":
        skipped.add("ids.py")  # a batch's: which LMS id a variant is drawn from
    if Path(folder) == _TEMPLATES.parent:
        skipped.add(_TEMPLATES.name)  # the handout's own templates are already written at its top
    return skipped


class HandoutError(UserError, ValueError):
    pass


def write_handout(out: Path, *, rubric: Rubric, exercises: Path = paths.EXERCISES) -> list[Path]:
    """Write the handout into `out` (new or empty); return the files written."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise HandoutError(f"{out} is not empty: choose a new folder for the handout")
    if not (exercises / "micrograd").is_dir():
        raise HandoutError(f"no exercises at {exercises}: run `autograder exercises` first")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(exercises / "micrograd", out / "micrograd", ignore=_skip)
    shutil.copytree(paths.KIT_ROOT / "autograder", out / "autograder", ignore=_skip)

    # the public cases of the rubric's variant (the base assignment's without [variants]), theirs only
    cases = select_cases(rubric, include_hidden=False)
    goldens = golden_values(cases, rubric, GoldenStore())
    # with each case's fingerprint, so `check --task mul` (a subset) finds its goldens here too
    write_goldens(out / "autograder" / HANDOUT_GOLDENS, cases_digest(cases, rubric.activation), goldens,
                  case_fingerprints(cases, rubric.activation))
    if rubric.variants is not None:
        write_variant_file(out / "autograder", rubric)

    # with [variants], the course's public key: the one the handout's variant.json is checked against
    write_text_atomic(out / "assignment.toml", public_rubric_toml(with_course_key(rubric)))
    for name in ("README.md", "conftest.py", "pytest.ini", "requirements.txt"):
        write_text_atomic(out / name, (_TEMPLATES / name).read_text(encoding="utf-8"))
    if rubric.variants is not None:
        write_text_atomic(out / "README.md", (out / "README.md").read_text(encoding="utf-8")
                          + readme_lines(rubric.variant))
    return sorted(p for p in out.rglob("*") if p.is_file())


def public_rubric_toml(rubric: Rubric) -> str:
    """The rubric as students may see it: everything but the hidden seed."""
    return rubric_toml(rubric, with_seed=False)
