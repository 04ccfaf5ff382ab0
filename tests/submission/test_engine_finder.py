"""Is the engine found by what a file's text holds, and is the package around it what the child imports?"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from autograder.submission import prepare
from autograder.submission.api_modules import MODULE_MAP
from autograder.submission.engine_finder import profile

KIT = Path(__file__).resolve().parents[2]
SOLUTION = KIT / "solutions" / "micrograd"
STUBS = KIT / "exercises" / "micrograd"
ENGINE = (SOLUTION / "engine.py").read_text()
NN = (SOLUTION / "nn.py").read_text()
TRAIN = (SOLUTION / "train.py").read_text()


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_is_a_file_an_engine_by_its_text_the_handouts_stubs_included(tmp_path):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ENGINE.splitlines(keepends=True)}]
    notebook = write(tmp_path, {"lecture.ipynb": json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                             "cells": cells}, indent=1)})
    found = {name: profile(path, path.parent) for name, path in {
        "solution": SOLUTION / "engine.py", "stub": STUBS / "engine.py", "nn": SOLUTION / "nn.py",
        "train": SOLUTION / "train.py", "notebook": notebook / "lecture.ipynb"}.items()}
    assert {n for n, p in found.items() if p.engine} == {"solution", "stub", "notebook"}
    assert found["solution"].value and found["nn"].nn and found["train"].train
    assert not found["nn"].engine  # uses Value, .data and .grad, but defines no __add__
    assert "micrograd" in found["nn"].imports


def test_does_a_huge_line_cost_the_grading_process_only_its_length(tmp_path):
    (tmp_path / "engine.py").write_text("class Value: pass\nfrom " + "a" * 200_000 + "\nfrom a." + "b" * 200_000 +
                                        "\nx = " + "class a. " * 50_000 + "(" * 100_000)
    started = time.monotonic()
    assert not profile(tmp_path / "engine.py", tmp_path).engine
    assert time.monotonic() - started < 2


def test_does_an_engine_in_a_file_of_another_name_keep_that_name_for_the_child(tmp_path):
    write(tmp_path / "hw", {"src/tinygrad2/__init__.py": "from .value import Value\n", "src/tinygrad2/value.py": ENGINE,
                            "src/tinygrad2/nn.py": NN.replace("micrograd.engine", "tinygrad2.value"),
                            "src/tinygrad2/train.py": TRAIN, "tests/test_value.py": "from tinygrad2 import Value\n"})
    prepared = prepare(tmp_path / "hw", tmp_path / "work")
    assert prepared.layout == "found"
    assert (prepared.root / MODULE_MAP).read_text() == "engine value\n"
    assert prepared.files["value"] == "src/tinygrad2/value.py"
    assert sorted(prepared.files) == ["__init__", "nn", "train", "value"]  # tests/ is not the package's
    assert "found your engine in src/tinygrad2/value.py: the kit grades the package src/tinygrad2/ it is in" \
        in prepared.problems


def test_is_a_script_beside_the_package_brought_in_for_the_module_the_package_lacks(tmp_path):
    write(tmp_path / "hw", {"nanograd/__init__.py": "", "nanograd/engine.py": ENGINE,
                            "nanograd/nn.py": NN.replace("micrograd", "nanograd"), "train.py": TRAIN,
                            "plot.py": "import nanograd\n"})
    prepared = prepare(tmp_path / "hw", tmp_path / "work")
    assert prepared.files["train"] == "train.py" and "plot" not in prepared.files
    assert (prepared.root / "micrograd" / "train.py").read_text() == TRAIN


def test_are_the_pieces_of_one_file_holding_everything_its_modules(tmp_path):
    write(tmp_path / "hw", {"micrograd.py": ENGINE + NN.replace("from micrograd.engine import Value", "") + TRAIN,
                            "main.py": "from micrograd import Value\n"})
    prepared = prepare(tmp_path / "hw", tmp_path / "work")
    assert (prepared.root / MODULE_MAP).read_text() == "engine micrograd\nnn micrograd\ntrain micrograd\n"
    assert not any("no " in p and "found" in p for p in prepared.problems), prepared.problems


def test_do_the_layouts_graded_before_come_out_as_before(tmp_path):
    """A package, loose files, one file, one notebook: no module map, no new line."""
    shutil.copytree(SOLUTION, tmp_path / "package" / "micrograd")
    (tmp_path / "package" / "lecture.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5,
                                                                     "metadata": {}, "cells": []}))
    write(tmp_path / "loose", {"engine.py": ENGINE, "nn.py": NN.replace("micrograd.engine", "engine"),
                               "train.py": TRAIN})
    write(tmp_path / "single", {"hw3.py": ENGINE})
    for name, layout in (("package", "package"), ("loose", "loose"), ("single", "single")):
        prepared = prepare(tmp_path / name, tmp_path / "work" / name)
        assert prepared.layout == layout
        assert not (prepared.root / MODULE_MAP).exists()
        assert prepared.problems == [], prepared.problems


def test_do_two_engines_as_plausible_get_one_line_and_a_backup_none(tmp_path):
    write(tmp_path / "two", {"a/micrograd/engine.py": ENGINE, "b/micrograd/engine.py": ENGINE})
    write(tmp_path / "backup", {"engine.py": ENGINE, "engine_old.py": ENGINE, "old/engine.py": ENGINE})
    two = prepare(tmp_path / "two", tmp_path / "work" / "two").problems
    assert [p for p in two if "each look like your engine" in p] == [
        "a/micrograd/engine.py and b/micrograd/engine.py each look like your engine: a/micrograd/engine.py was "
        "graded (hand in only the one you mean)"]
    assert not any("each look like" in p for p in prepare(tmp_path / "backup", tmp_path / "work" / "b").problems)
