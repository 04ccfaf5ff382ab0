"""What grading needs installed on Gradescope's image (the kit's autograder zip, and otter's):
the kit's own dependencies as its distribution declares them (pyproject.toml, extras left out: no
torch, since the goldens ship), environment markers kept (tomli on Python < 3.11), and the
packages the rubric lets student code import (numpy)."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, requires

from autograder import paths
from autograder.config import Rubric, tomllib

DISTRIBUTION = "backprop-kit"


def kit_dependencies() -> list[str]:
    """pyproject.toml's [project] dependencies, from the installed distribution (else the file)."""
    try:
        found = requires(DISTRIBUTION) or []
    except PackageNotFoundError:  # run from a checkout that is not installed
        data = tomllib.loads((paths.KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        found = data["project"]["dependencies"]
    return [r for r in found if "extra" not in r.partition(";")[2]]


def grading_requirements(rubric: Rubric) -> str:
    """requirements.txt for a platform's grading environment."""
    return "\n".join([*kit_dependencies(), *rubric.allowed_imports]) + "\n"
