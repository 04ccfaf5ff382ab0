"""Does a temporary folder of the kit's (students' files in it) go at the next run when the process that made it
was killed outright, and only such a folder?"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import scratch


def _made_by_a_killed_process(tmp: Path) -> Path:
    """A folder made by scratch in a process then SIGKILLed, a student's file in it."""
    code = ("import os, sys, tempfile; tempfile.tempdir = sys.argv[1]; from autograder import scratch; "
            "folder, fd = scratch.make('autograder-'); open(os.path.join(folder, 'engine.py'), 'w').write('# x'); "
            "print(folder, flush=True); os.kill(os.getpid(), 9)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp)], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    folder = Path(done.stdout.strip())
    assert (folder / "engine.py").exists()
    return folder


def test_is_a_killed_processs_folder_removed_and_a_live_ones_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    dead = _made_by_a_killed_process(tmp_path)
    monkeypatch.setattr(scratch, "_SWEPT", [os.getpid()])  # this process swept already: make() won't
    live, fd = scratch.make("autograder-")
    try:
        assert scratch.sweep(str(tmp_path)) == 1
        assert not dead.exists() and os.path.isdir(live)
    finally:
        scratch.remove(live, fd)
    assert not os.path.exists(live)


def test_is_what_the_kit_did_not_make_left_alone(tmp_path):
    older = tmp_path / "autograder-older"  # no lock: an older kit's, or one being made
    older.mkdir()
    (tmp_path / "autograder-link").symlink_to(older)
    other = tmp_path / "unrelated"
    other.mkdir()
    (other / scratch.HELD).write_text("")
    planted = tmp_path / "autograder-planted"  # its lock a link to a file elsewhere: never followed
    planted.mkdir()
    (planted / scratch.HELD).symlink_to(other / scratch.HELD)
    assert scratch.sweep(str(tmp_path)) == 0
    assert older.is_dir() and other.is_dir() and planted.is_dir()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a folder another user owns")
def test_is_another_users_folder_left_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    theirs = _made_by_a_killed_process(tmp_path)
    os.chown(theirs, 65534, 65534)
    assert scratch.sweep(str(tmp_path)) == 0 and theirs.exists()


def test_does_the_with_form_remove_its_folder_and_the_first_folder_sweep(tmp_path, monkeypatch):
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    dead = _made_by_a_killed_process(tmp_path)
    monkeypatch.setattr(scratch, "_SWEPT", [])  # this process has not swept yet
    with scratch.scratch("autograder-") as folder:
        assert not dead.exists(), "the first folder a process makes sweeps what a killed run left"
        assert sorted(os.listdir(folder)) == [scratch.HELD] and os.stat(folder).st_mode & 0o777 == 0o700
    assert not os.path.exists(folder)
