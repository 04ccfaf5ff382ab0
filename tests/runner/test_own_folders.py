"""Does the kit keep its folders and locks in shared places only while they are its user's own? (issue 28, class 7)

A local user can make the names the kit uses in /tmp before it does: hold every CPU slot in a folder of
theirs, or plant a symbolic link that a grader run as root would follow. Each test runs the grader in a
process of its own whose TMPDIR or AUTOGRADER_CACHE is a sticky, world-writable folder of the test's (the
machine's /tmp is left to the other graders running on it), where another uid (65534) has planted the name.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OTHER = 65534
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="planting a folder of another uid's needs root")

ONE_CPU = "from autograder.runner import same_cpu\nwith same_cpu.one_cpu() as cpu:\n    print(cpu)\n"


def _shared(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # as /tmp
    return shared


def _theirs(path: Path) -> Path:
    """A folder of uid 65534's at `path`, as another user would leave it (open to everyone: a trap)."""
    path.mkdir()
    os.chown(path, OTHER, OTHER)
    os.chmod(path, 0o777)
    return path


def _their_link(path: Path, target: Path) -> Path:
    path.symlink_to(target)
    os.lchown(path, OTHER, OTHER)
    return path


def _run(code: list[str], **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *code], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO), **env})


def _slot_name() -> str:
    return f"backprop-kit-cpus-{os.geteuid()}"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="same_cpu holds nothing on one CPU")
@pytest.mark.parametrize("planted", ["folder", "link"])
def test_are_cpu_slots_never_taken_in_a_folder_or_link_another_user_planted(tmp_path, planted):
    shared, trap = _shared(tmp_path), _theirs(tmp_path / "trap")
    if planted == "folder":
        trap = _theirs(shared / _slot_name())
    else:
        _their_link(shared / _slot_name(), trap)
    cache = tmp_path / "cache"
    done = _run(["-c", ONE_CPU], TMPDIR=str(shared), AUTOGRADER_CACHE=str(cache), AUTOGRADER_SAME_CPU="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().isdigit(), "the grading thread is still held on one CPU"
    assert not list(trap.iterdir()), f"slot files made in the {planted} another user planted: {list(trap.iterdir())}"
    assert list((cache / "cpus").iterdir()), "the slots are kept in the user's own cache instead"
    assert (cache / "cpus").stat().st_mode & 0o777 == 0o700


def test_is_a_cpu_slot_folder_made_private_and_its_slots_never_inherited(tmp_path):
    shared = _shared(tmp_path)
    code = ONE_CPU + ("import fcntl, os\n"
                      "from autograder.runner.same_cpu import _HELD\n"
                      "fd = _HELD.slot[1]\n"
                      "print(fd >= 0 and bool(fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC))\n")
    done = _run(["-c", code], TMPDIR=str(shared), AUTOGRADER_CACHE=str(tmp_path / "cache"), AUTOGRADER_SAME_CPU="1")
    assert done.returncode == 0, done.stderr
    if len(os.sched_getaffinity(0)) >= 2:
        assert done.stdout.split()[-1] == "True", "a slot's lock is closed in every program the grader starts"
    assert (shared / _slot_name()).stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("planted", ["folder", "link"])
def test_does_a_cache_another_user_planted_get_one_line_and_exit_2(tmp_path, planted):
    shared, trap = _shared(tmp_path), _theirs(tmp_path / "trap")
    cache = shared / "backprop-cache"
    if planted == "folder":
        trap = _theirs(cache)
    else:
        _their_link(cache, trap)
    done = _run(["-m", "autograder", "grade", "solutions"], AUTOGRADER_CACHE=str(cache))
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    errors = [line for line in done.stderr.splitlines() if line.startswith("autograder:")]
    assert len(errors) == 1 and str(cache) in errors[0] and f"uid {OTHER}" in errors[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not list(trap.iterdir()), f"the grader wrote in the {planted} another user planted"


def test_is_a_cache_link_of_the_users_own_still_followed(tmp_path):
    real = tmp_path / "disk" / "cache"
    real.mkdir(parents=True, mode=0o700)
    link = tmp_path / "cache-link"
    link.symlink_to(real)
    from autograder.own_folders import own_folder

    assert own_folder(link) == link  # a cache moved to another disk by its user: right work, not refused


def test_is_a_cache_of_the_users_own_made_under_umask_002_kept_and_closed_to_others(tmp_path):
    from autograder.own_folders import own_folder

    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o775)  # as a kit of before made it under a umask of 002: right work, not refused
    assert own_folder(cache) == cache
    assert cache.stat().st_mode & 0o777 == 0o755
