"""A handout written once per session from the kit's own rubric, for the handout tests to read."""
from pathlib import Path

import pytest

from autograder.config import load_rubric
from autograder.handout import write_handout
from autograder.paths import KIT_ROOT


@pytest.fixture(scope="session")
def handout(tmp_path_factory) -> Path:
    """Read-only for the tests: one that changes files copies it first."""
    out = tmp_path_factory.mktemp("handout") / "hw1"
    write_handout(out, rubric=load_rubric(KIT_ROOT / "assignment.toml"))
    return out
