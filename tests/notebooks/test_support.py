"""Are the secrets a notebook edition writes (kit_secret/: the hidden seed, every golden) the grader's alone?"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.cli import main

SEED = "918273645"
NOBODY = 65534


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def course(monkeypatch):
    """A course in a folder open to other users (not pytest's 0700 ones), as a course folder on a
    shared machine is."""
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    root = Path(tempfile.mkdtemp(prefix="kit-secret-"))
    root.chmod(0o755)
    try:
        assert main(["export", "nbgrader", str(root / "course"), "--assignment", "hw1"]) == 0
        yield root / "course"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_does_export_nbgrader_lock_kit_secret_to_the_grader(course):
    """0700 folders (kit_secret/ and kit_secret/hw1/) and 0600 files, whatever the umask: as the Gradescope
    zip locks its secret/."""
    secret = course / "kit_secret" / "hw1"
    assert _mode(course / "kit_secret") == 0o700 and _mode(secret) == 0o700
    files = sorted(p.name for p in secret.iterdir())
    assert files == ["assignment.toml", "goldens.json"]
    assert all(_mode(secret / name) == 0o600 for name in files)
    assert SEED in (secret / "assignment.toml").read_text()
    assert _mode(course / "source" / "hw1" / "backprop.ipynb") & 0o004  # what is released stays readable


SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")


@pytest.mark.skipif(os.geteuid() != 0 or not SYSTEM_PYTHON.is_file(),
                    reason="reading as another user needs root to become it, and a Python it can run")
def test_can_another_user_read_the_hidden_seed(course):
    """As the uid levels run a student's code (uid 65534): the seed and the goldens are refused."""
    secret = course / "kit_secret" / "hw1"
    code = ("import sys\nfor p in sys.argv[1:]:\n    try:\n        open(p).read(); print('READ', p)\n"
            "    except PermissionError:\n        print('refused')")
    done = subprocess.run([str(SYSTEM_PYTHON), "-I", "-S", "-c", code,
                           str(secret / "assignment.toml"), str(secret / "goldens.json")],
                          capture_output=True, text=True, timeout=30, user=NOBODY, group=NOBODY, extra_groups=[])
    assert done.stdout.split() == ["refused", "refused"], done.stdout + done.stderr
