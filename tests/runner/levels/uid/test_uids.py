"""Does every child running at once get a uid of its own, and is what it left in SysV IPC removed?"""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.runner.levels.uid import uids

ROOT = os.geteuid() == 0


def test_do_children_running_at_once_get_different_uids_and_a_freed_one_comes_back(tmp_path):
    first, second = uids.take(tmp_path), uids.take(tmp_path)
    try:
        assert first.uid != second.uid
        assert all(uids.FIRST <= s.uid < uids.FIRST + uids.COUNT for s in (first, second))
        assert os.stat(tmp_path).st_mode & 0o777 == 0o700
    finally:
        uids.release(second)
    third = uids.take(tmp_path)
    try:
        assert third.uid == second.uid
    finally:
        uids.release(first)
        uids.release(third)


def test_is_a_uid_held_by_another_grading_process_skipped(tmp_path):
    """The lock is a flock: another process (a worker of the same batch) holding uid FIRST is left alone."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); from autograder.runner.levels.uid import uids; "
            "from pathlib import Path; s = uids.take(Path(sys.argv[2])); print(s.uid, flush=True); time.sleep(30)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(uids.__file__).rsplit("/autograder/", 1)[0],
                               str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        held = int(holder.stdout.readline())
        mine = uids.take(tmp_path)
        assert mine.uid != held
        uids.release(mine)
    finally:
        holder.kill()
        holder.wait()
    again = uids.take(tmp_path)  # the holder died: its lock went with it
    assert again.uid == held
    uids.release(again)


@pytest.mark.skipif(not ROOT, reason="making a segment as another uid needs root")
def test_are_the_sysv_objects_a_uid_made_removed_when_its_child_ends():
    """As `ipcrm` would: a 0666 shared memory segment, a semaphore set and a message queue made by the uid."""
    uid = uids.FIRST + uids.COUNT - 1
    code = ("import ctypes; c = ctypes.CDLL(None); "
            "print(c.shmget(0, 4096, 0o1666), c.semget(0, 1, 0o1666), c.msgget(0, 0o1666))")
    try:  # a Python that uid can run (this one may live under /root)
        made = subprocess.run(["/usr/bin/python3", "-I", "-S", "-c", code], capture_output=True, text=True,
                              timeout=30, user=uid, group=uid, extra_groups=[], cwd="/")
    except OSError as err:
        pytest.skip(f"uid {uid} can't run /usr/bin/python3: {err}")
    shm, sem, msg = map(int, made.stdout.split())
    assert min(shm, sem, msg) >= 0, made.stdout
    assert uids.remove_ipc(uid) == 3
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.shmctl(shm, 2, ctypes.create_string_buffer(256)) == -1  # IPC_STAT: gone
    assert uids.remove_ipc(uid) == 0


@pytest.mark.skipif(not ROOT or not os.path.isdir("/run"), reason="the machine's lock folder is root's, in /run")
def test_do_grading_processes_with_different_caches_share_one_set_of_slots(tmp_path):
    """Two batches on one machine (each with its own AUTOGRADER_CACHE) must never give one uid to two children."""
    first, second = uids.lock_dir(tmp_path / "a"), uids.lock_dir(tmp_path / "b")
    assert first == second == Path(uids.LOCKS)
    assert os.stat(first).st_mode & 0o777 == 0o700


@pytest.mark.skipif(not ROOT, reason="making a segment as another uid needs root")
def test_does_taking_a_uid_remove_what_a_child_of_a_killed_run_left_under_it(tmp_path):
    """A run killed outright never released its slot: its child's SysV objects are removed when the uid is next taken."""
    dead = uids.take(tmp_path)
    os.close(dead.fd)  # the holder died: its lock went with it, its release never came
    code = "import ctypes; c = ctypes.CDLL(None); print(c.msgget(0, 0o1666))"  # a queue outlives its maker
    try:
        made = subprocess.run(["/usr/bin/python3", "-I", "-S", "-c", code], capture_output=True, text=True,
                              timeout=30, user=dead.uid, group=dead.uid, extra_groups=[], cwd="/")
    except OSError as err:
        pytest.skip(f"uid {dead.uid} can't run /usr/bin/python3: {err}")
    queue = int(made.stdout)
    assert queue >= 0, made.stderr
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        again = uids.take(tmp_path)
        os.close(again.fd)  # not released: only take may have removed it
        assert again.uid == dead.uid
        assert libc.msgctl(queue, 2, ctypes.create_string_buffer(256)) == -1, "the dead child's queue is still there"
    finally:
        libc.msgctl(queue, 0, None)


@pytest.mark.skipif(not ROOT, reason="a folder of another group's needs root")
def test_are_the_folders_a_dead_run_left_under_a_uid_removed_and_no_others(tmp_path):
    uid = uids.FIRST + 3
    for name, gid in (("child-dead", uid), ("child-live", uid + 1)):
        (tmp_path / name / "work").mkdir(parents=True)
        os.chown(tmp_path / name, 0, gid)
    assert uids.clear_left(str(tmp_path), uid) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["child-live"]
