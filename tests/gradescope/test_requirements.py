"""Does a platform's grading environment get every library the kit needs, from pyproject.toml's one list?"""
from __future__ import annotations

import tomllib

from autograder.config import Rubric
from autograder.gradescope.requirements import grading_requirements, kit_dependencies
from autograder.paths import KIT_ROOT


def test_are_the_kits_dependencies_pyprojects_without_the_extras():
    declared = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    found = kit_dependencies()
    assert [r.replace("'", '"') for r in found] == [r.replace("'", '"') for r in declared]
    assert not any("torch" in r or "otter" in r or "pytest" in r for r in found)


def test_do_the_requirements_keep_markers_and_add_what_student_code_may_import():
    lines = grading_requirements(Rubric(allowed_imports=("numpy",))).splitlines()
    assert 'tomli>=2; python_version < "3.11"' in lines  # Python 3.10 images (Ubuntu 22.04) read the rubric with it
    assert lines[-1] == "numpy" and "rich>=13" in lines
