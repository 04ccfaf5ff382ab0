"""Which names do a student's files import their own package by, and does load.py hand them on?"""
from __future__ import annotations

from pathlib import Path

import pytest

from autograder.submission.load import prepare
from autograder.submission.own_names import OWN_NAMES, own_names

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions" / "micrograd"
MODULES = {"engine", "nn", "train"}


def _package(tmp_path: Path, nn_line: str) -> Path:
    pkg = tmp_path / "micrograd"
    pkg.mkdir()
    (pkg / "engine.py").write_text("class Value: pass\n")
    (pkg / "nn.py").write_text(nn_line + "\n")
    return pkg


@pytest.mark.parametrize("line, names", [
    ("from my_micrograd.engine import Value", ["my_micrograd"]),
    ("import crudgrad.engine", ["crudgrad"]),
    ("from crudgrad import nn", ["crudgrad"]),
    ("from micrograd.engine import Value", []),
    ("from engine import Value", []),
    ("import numpy as np\nimport os.path", []),
    ("from json import engine", []),                  # the standard library's name is never taken
    ("import somelib", []),                           # a bare import of a name that is not the folder's
    ("from jax import nn\nimport tensorflow.nn", []),  # a library's modules of the same names
])
def test_is_a_name_taken_only_when_a_file_reaches_a_module_of_the_student_through_it(tmp_path, line, names):
    assert own_names(_package(tmp_path, line), MODULES) == names


def test_is_the_folders_own_name_taken_when_a_file_imports_it_bare(tmp_path):
    assert own_names(_package(tmp_path, "import my_micrograd"), MODULES, "my_micrograd") == ["my_micrograd"]


def test_does_a_file_that_does_not_parse_stop_nothing(tmp_path):
    pkg = _package(tmp_path, "import crudgrad.engine")
    (pkg / "train.py").write_text("def broken(:\n")
    assert own_names(pkg, MODULES) == ["crudgrad"]


def test_does_load_write_the_names_beside_the_package_and_say_so(tmp_path):
    folder = tmp_path / "handin" / "my_micrograd"
    folder.mkdir(parents=True)
    for name in ("engine.py", "train.py"):
        (folder / name).write_text((SOLUTIONS / name).read_text())
    (folder / "nn.py").write_text((SOLUTIONS / "nn.py").read_text().replace(
        "from micrograd.engine import Value", "from my_micrograd.engine import Value"))
    prepared = prepare(tmp_path / "handin", tmp_path / "work")
    assert (prepared.root / OWN_NAMES).read_text() == "my_micrograd\n"
    assert any("`my_micrograd`" in p for p in prepared.problems)


def test_does_a_huge_deeply_nested_file_cost_the_grading_process_only_its_length(tmp_path):
    """The names are read line by line from the first MAX_BYTES, never parsed as a whole (issue 19.2):
    6 MB of nested brackets after the import line neither crash nor take long."""
    import time

    from autograder.submission.own_names import own_names

    package = tmp_path / "micrograd"
    package.mkdir()
    (package / "nn.py").write_text("from my_micrograd.engine import Value\nx = " + "(" * 3_000_000 + ")" * 3_000_000)
    started = time.monotonic()
    assert own_names(package, {"engine", "nn"}) == ["my_micrograd"]
    assert time.monotonic() - started < 2
