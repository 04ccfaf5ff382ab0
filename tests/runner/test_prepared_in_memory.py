"""Is the worker's prepared copy of a submission made in memory (scratch.memory: /dev/shm) where it can be, removed
after, and what a killed run left there swept? And is a zygote's staged copy of it still a copy there, no inode of
the grader's shared with the child, now that both are on one filesystem? Real grading, real sandbox."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from autograder import scratch
from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.runner import levels
from autograder.runner.levels.zygote import level as zygote_level
from autograder.runner.levels.zygote import staging

KIT = Path(__file__).resolve().parents[2]


def student(tmp_path: Path) -> Path:
    root = tmp_path / "student"
    shutil.copytree(KIT / "solutions" / "micrograd", root / "micrograd")
    return root


@pytest.fixture
def made(monkeypatch):
    """(prefix, where) of every kit folder made from now on (scratch.make)."""
    calls = []
    real = scratch.make

    def recording(prefix, mode=0o700, where=None):
        folder, fd = real(prefix, mode, where)
        calls.append((prefix, where, folder))
        return folder, fd

    monkeypatch.setattr(scratch, "make", recording)
    return calls


def test_is_the_prepared_copy_made_in_memory_and_gone_after(tmp_path, monkeypatch, made):
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir(), tmp.mkdir()
    monkeypatch.setattr(scratch, "SHM", str(shm))
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("AUTOGRADER_ZYGOTE", "0")  # this test's own places: no zygote's staging folder in them
    dead = shm / "autograder-killed"  # a prepared copy a killed worker left there: its lock free
    (dead / "micrograd").mkdir(parents=True)
    (dead / "micrograd" / "engine.py").write_text("# a student's work\n")
    os.close(os.open(dead / scratch.HELD, os.O_RDWR | os.O_CREAT, 0o600))
    monkeypatch.setattr(scratch, "_SWEPT", [])
    report = grade_path(student(tmp_path), rubric=load_rubric(), include_hidden=False, tasks=["add"])
    assert report.error is None and report.tasks[0].score == report.tasks[0].max_score > 0
    prepared = [(where, folder) for prefix, where, folder in made if prefix == "autograder-"]
    assert prepared and prepared[0][0] == str(shm) and Path(prepared[0][1]).parent == shm, made
    assert not dead.exists(), "a killed run's prepared copy in memory is swept"
    assert os.listdir(shm) == [], "the prepared copy is removed after the grading"
    assert [name for name in os.listdir(tmp) if name.startswith(scratch.PREFIXES)] == []


def test_does_the_prepared_copy_stay_in_the_temporary_folder_without_room_in_memory(tmp_path, monkeypatch, made):
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir(), tmp.mkdir()
    monkeypatch.setattr(scratch, "SHM", str(shm))
    monkeypatch.setattr(scratch, "SHM_ROOM", 1 << 62)
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("AUTOGRADER_ZYGOTE", "0")
    report = grade_path(student(tmp_path), rubric=load_rubric(), include_hidden=False, tasks=["add"])
    assert report.error is None and report.tasks[0].score == report.tasks[0].max_score > 0
    assert [where for prefix, where, _ in made if prefix == "autograder-"] == [None]


def test_is_a_staged_copy_in_memory_no_link_to_the_grader_s_files(tmp_path, monkeypatch):
    """Both in memory, on one filesystem: the staged files are copies (one link each), not the prepared files'
    inodes, which the grader reads again after the child has run."""
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "bubblewrap")
    monkeypatch.delenv("AUTOGRADER_ZYGOTE", raising=False)
    if not isinstance(levels.current(), zygote_level.ZygoteLevel):
        pytest.skip("no zygote at this level (the grader is not root, or no setpriv)")
    if staging.place() is None:
        pytest.skip("no staging folder in memory here")
    seen = []
    real = zygote_level.stage

    def looking(student_root, copy, link=True):
        real(student_root, copy, link)
        seen.append((student_root, {name: os.stat(os.path.join(copy, "micrograd", name)).st_nlink
                                    for name in os.listdir(os.path.join(copy, "micrograd"))}))

    monkeypatch.setattr(zygote_level, "stage", looking)
    report = grade_path(student(tmp_path), rubric=load_rubric(), include_hidden=False, tasks=["add"])
    assert report.error is None and report.tasks[0].score == report.tasks[0].max_score > 0
    assert seen and seen[0][0].startswith(f"{scratch.SHM}/autograder-"), seen  # prepared in memory
    assert seen[0][1] and set(seen[0][1].values()) == {1}, seen


@pytest.fixture(autouse=True)
def _fresh_tempdir():
    yield
    scratch.tempfile.tempdir = None

