"""Is every LMS layout listed once, with the whole Layout protocol, and is Moodle one of them?"""
from __future__ import annotations

from pathlib import Path

from autograder.batch import layouts
from autograder.batch.discover import discover
from autograder.batch.layouts import LAYOUTS, recognise, recognise_names

FOLDER = Path(layouts.__file__).parent


def test_is_every_layout_module_listed_once():
    modules = sorted(p.stem for p in FOLDER.glob("*.py") if p.stem not in ("__init__", "base"))
    assert sorted(layout.name for layout in LAYOUTS) == modules
    for layout in LAYOUTS:
        for method in ("looks_like", "looks_like_names", "find"):
            assert callable(getattr(layout, method)), (layout.name, method)


def _moodle(root: Path) -> Path:
    for who in ("Ada Lovelace_101", "Alan Turing_102", "Zoë Ng_103"):
        folder = root / f"{who}_assignsubmission_file_" / "micrograd"
        folder.mkdir(parents=True)
        (folder / "engine.py").write_text("x = 1\n")
    return root


def test_is_a_moodle_download_its_own_layout(tmp_path):
    folder = _moodle(tmp_path / "dl")
    assert recognise(folder).name == "moodle"
    found = discover([folder], tmp_path / "work")
    assert [(e.student, e.source) for e in found.entries] == [
        ("Ada_Lovelace_101", "moodle"), ("Alan_Turing_102", "moodle"), ("Zoë_Ng_103", "moodle")]


def test_are_zip_member_names_recognised_per_layout():
    assert recognise_names(["submission_metadata.yml", "submission_1/engine.py"]).name == "gradescope"
    assert recognise_names(["ann_1030_5030_engine.py", "bo_1040_5040_nn.py"]).name == "canvas"
    assert recognise_names(["Ada Lovelace_101_assignsubmission_file_/engine.py"]).name == "moodle"
    assert recognise_names(["micrograd/engine.py", "micrograd/nn.py"]) is None
