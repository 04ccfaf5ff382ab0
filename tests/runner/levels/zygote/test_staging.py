"""Does a staging folder a killed run's zygote left go at the next zygote, and only such a folder?"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from autograder import scratch
from autograder.runner.levels.zygote import staging


def _folder(tmp: Path, name: str, *, held_by: list | None = None, lock: bool = True) -> Path:
    folder = tmp / f"{staging.PREFIX}{name}"
    (folder / "backprop-child-x" / "micrograd").mkdir(parents=True)
    (folder / "backprop-child-x" / "micrograd" / "engine.py").write_text("# a student's copy\n")
    if lock:
        fd = os.open(folder / staging.HELD, os.O_RDWR | os.O_CREAT, 0o600)
        if held_by is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held_by.append(fd)
        else:
            os.close(fd)
    return folder


def test_is_only_a_dead_zygotes_staging_folder_removed(tmp_path):
    held: list[int] = []
    try:
        dead = _folder(tmp_path, "dead")
        live = _folder(tmp_path, "live", held_by=held)
        unlocked = _folder(tmp_path, "older-kit", lock=False)  # no lock: being made, or an older kit's
        theirs = _folder(tmp_path, "theirs")
        if os.geteuid() == 0:
            os.chown(theirs, 65534, 65534)
        assert staging.sweep(str(tmp_path)) == (1 if os.geteuid() == 0 else 2)
        assert not dead.exists()
        assert live.exists() and unlocked.exists()
        if os.geteuid() == 0:
            assert theirs.exists(), "another user's folder is never touched"
    finally:
        for fd in held:
            os.close(fd)


def test_is_a_new_staging_folder_locked_before_a_sweep_can_see_it(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(scratch.tempfile, "tempdir", None)
    monkeypatch.setattr(scratch, "SHM", str(tmp_path / "no-shm"))  # none: the temporary folder
    folder, fd = staging.make()
    try:
        assert Path(folder).parent == tmp_path and os.stat(folder).st_mode & 0o777 == 0o755
        assert sorted(os.listdir(folder)) == [staging.HELD]
        assert staging.sweep(str(tmp_path)) == 0 and os.path.isdir(folder)
    finally:
        os.close(fd)
    assert staging.sweep(str(tmp_path)) == 1 and not os.path.exists(folder)


def test_is_the_staging_folder_in_memory_where_it_can_be_and_swept_there(tmp_path, monkeypatch):
    """A staging folder goes to /dev/shm (a tmpfs: its copies' folders cost no disk, journal or discard) where
    that can be written and has room, else to the temporary folder; a killed run's is swept from either."""
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir(), tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(scratch.tempfile, "tempdir", None)
    monkeypatch.setattr(scratch, "SHM", str(shm))
    folder, fd = staging.make()
    os.close(fd)
    assert Path(folder).parent == shm
    dead = _folder(tmp, "dead")
    monkeypatch.setattr(scratch, "_SWEPT", [])
    assert staging.sweep() == 2 and not os.path.exists(folder) and not dead.exists()
    monkeypatch.setattr(scratch, "SHM_ROOM", 1 << 62)  # no room there: the temporary folder
    folder, fd = staging.make()
    os.close(fd)
    assert Path(folder).parent == tmp


def test_is_a_staging_folder_kept_off_a_noexec_dev_shm(tmp_path, monkeypatch):
    """Mounted noexec where the temporary folder is not, /dev/shm is not used: the child's read-only remount of
    its copy would drop a flag its user namespace can't drop, and every fork would fail."""
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir(), tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(scratch.tempfile, "tempdir", None)
    monkeypatch.setattr(scratch, "SHM", str(shm))
    real = os.statvfs

    def noexec_shm(path):
        found = real(path)
        if str(path) != str(shm):
            return found
        return os.statvfs_result(tuple(found)[:8] + (found.f_flag | os.ST_NOEXEC, found.f_namemax))

    monkeypatch.setattr(os, "statvfs", noexec_shm)
    assert staging.place() is None
    folder, fd = staging.make()
    os.close(fd)
    assert Path(folder).parent == tmp


@pytest.fixture(autouse=True)
def _fresh_tempdir():
    yield
    scratch.tempfile.tempdir = None  # gettempdir() reads TMPDIR again for the next test
