"""Is the child's code compiled once by the grader, so no child compiles it again (issue 23)?"""
from __future__ import annotations

import shutil
import sys

from autograder.runner import run_cases
from autograder.runner.bytecode import compile_once

from test_session import FAKE, LIMITS, add_case, make_student


def test_does_a_child_start_leave_the_bytecode_of_its_programs_beside_them(tmp_path):
    """The child can't write beside its read-only code: the grading process does it before the start."""
    programs = tmp_path / "programs"
    shutil.copytree(FAKE, programs, ignore=shutil.ignore_patterns("__pycache__"))
    result = run_cases(make_student(tmp_path), [add_case()], limits=LIMITS, programs_dir=programs)
    assert result.outcomes["add/one"].status == "ok"
    tag = sys.implementation.cache_tag
    modules = {p.stem for p in programs.glob("*.py")}
    assert {p.name.split(".")[0] for p in (programs / "__pycache__").glob(f"*.{tag}.pyc")} == modules


def test_is_a_folder_the_grader_cant_write_left_as_it_is(tmp_path):
    """No error: the child then compiles its code itself, as before."""
    assert compile_once(str(tmp_path / "missing")) is False
