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


def test_is_bytecode_written_again_when_a_module_changed_and_not_when_all_is_fresh(tmp_path):
    """The fresh case is told from the bytecode's headers alone (compileall is not imported for it); a
    module whose source changed (mtime or size) or has no bytecode is compiled again."""
    import importlib.util
    import os

    from autograder.runner import bytecode

    folder = tmp_path / "code"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.py").write_text("x = 1\n")
    (folder / "sub" / "b.py").write_text("y = 2\n")
    assert not bytecode._all_fresh(str(folder))
    assert bytecode.compile_once(str(folder)) and bytecode._all_fresh(str(folder))
    (folder / "sub" / "b.py").write_text("y = 22\n")  # a size of its own
    os.utime(folder / "sub" / "b.py", (1, 1))  # and another mtime
    assert not bytecode._all_fresh(str(folder))
    bytecode.compile_once.cache_clear()
    assert bytecode.compile_once(str(folder)) and bytecode._all_fresh(str(folder))
    pyc = importlib.util.cache_from_source(str(folder / "sub" / "b.py"))
    assert os.path.getmtime(pyc) >= os.path.getmtime(folder / "a.py")
