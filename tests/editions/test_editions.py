"""Is every edition listed once, behind the one Edition interface, and does the CLI reach it?"""
from __future__ import annotations

from pathlib import Path

import pytest

from autograder import editions
from autograder.cli import main
from autograder.config import load_rubric
from autograder.errors import UserError
from autograder.paths import KIT_ROOT

FOLDER = Path(editions.__file__).parent


def test_is_every_edition_module_listed_once():
    modules = sorted(p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__")
    assert sorted(e.name for e in editions.EDITIONS) == modules
    for e in editions.EDITIONS:
        assert e.summary and callable(e.write)


def test_does_the_handout_edition_write_a_handout_and_refuse_a_used_folder(tmp_path):
    handout = editions.edition("handout")
    files = handout.write(tmp_path / "hw1", rubric=load_rubric(KIT_ROOT / "assignment.toml"))
    assert (tmp_path / "hw1" / "micrograd" / "engine.py") in files
    with pytest.raises(UserError, match="not empty"):
        handout.write(tmp_path / "hw1", rubric=load_rubric(KIT_ROOT / "assignment.toml"))


def test_does_the_cli_say_in_one_line_when_the_handout_folder_is_used(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["handout", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not empty" in err and err.count("\n") == 1
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_does_export_name_the_editions_it_has_when_asked_for_another(tmp_path, capsys):
    assert main(["export", "blackboard", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "no edition 'blackboard'" in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_does_export_otter_say_the_otter_command_that_comes_next(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", "24680")
    dest = tmp_path / "hw1-otter"
    assert main(["export", "otter", str(dest)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"Next: cd {dest} && otter assign backprop.ipynb dist"
    assert (dest / "backprop.ipynb").is_file()  # what that command assigns
    per_student = editions.edition("otter").next_step(dest, roster=tmp_path / "roster.csv")
    assert f"for d in {dest}/*/" in per_student and "otter assign backprop.ipynb dist" in per_student
