"""Does each engine namespace expose the exercise API, and does loading the kit's own code leave no trace?"""
from __future__ import annotations

import shutil
import sys

import pytest

from autograder.engines import API_NAMES, package_api, reference_api, torch_api
from autograder.paths import KIT_ROOT


@pytest.mark.parametrize("make", [reference_api, torch_api])
def test_does_every_engine_expose_the_whole_api(make):
    api = make()
    assert all(callable(getattr(api, n)) for n in API_NAMES)


def test_does_loading_solutions_put_back_the_micrograd_imported_before(tmp_path):
    import micrograd  # karpathy's, from PyPI (the dev extra)

    shutil.copytree(KIT_ROOT / "solutions" / "micrograd", tmp_path / "micrograd",
                    ignore=shutil.ignore_patterns("__pycache__"))
    before = sys.modules["micrograd"]
    api = package_api(tmp_path, "solutions")
    assert sys.modules["micrograd"] is before is micrograd
    assert api.Value(2.0).data == 2.0 and api.Value.__module__ == "micrograd.engine"
    import micrograd.engine as karpathys

    assert api.Value is not karpathys.Value
    assert not list(tmp_path.rglob("__pycache__")), "no bytecode written into the folder"


def test_is_a_package_that_is_not_in_the_folder_refused(tmp_path):
    """A folder without its own micrograd/ must not silently load another one from sys.path."""
    (tmp_path / "micrograd").mkdir()
    shutil.copy(KIT_ROOT / "solutions" / "micrograd" / "engine.py", tmp_path / "micrograd" / "engine.py")
    with pytest.raises(ImportError):
        package_api(tmp_path, "half")
