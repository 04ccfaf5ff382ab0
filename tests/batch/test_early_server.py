"""Is the pool's fork server started as `grade --out` starts where the run will grade every submission in a local pool
(batch/early_server.py), taken by the pool, and stopped where no pool takes it?"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from autograder.batch import early_server, fork_server

from test_fork_server import _graded

pytestmark = pytest.mark.skipif(not fork_server.wanted(), reason="the workers are spawned here (not Linux)")


@pytest.fixture(autouse=True)
def none_left():
    yield
    early_server._stop()


def _early_pid() -> int | None:
    return early_server._EARLY[0][0]._forkserver_pid if early_server._EARLY else None


def test_do_the_workers_of_a_new_class_come_from_the_server_started_before_the_pool(tmp_path, monkeypatch):
    early_server.start(tmp_path / "out", regrade=False, executor=None)
    server = _early_pid()
    assert server is not None and Path(f"/proc/{server}").exists()
    notes = _graded(tmp_path, ["ana", "ben", "cai"], monkeypatch, "early")
    assert {n["ppid"] for n in notes} == {server}  # the pool took it: no second server
    assert not early_server._EARLY and not Path(f"/proc/{server}").exists()  # and ended it with the pool


@pytest.mark.parametrize("rerun, regrade, executor, started", [
    (False, False, "local", True),
    (True, True, None, True),          # --regrade grades every submission again
    (True, False, None, False),        # a rerun grades what changed: often one submission, in place
    (False, False, "dask://127.0.0.1:8786", False),  # no local pool
])
def test_is_the_server_started_only_where_a_local_pool_grades_everything(tmp_path, rerun, regrade, executor,
                                                                         started):
    out = tmp_path / "out"
    if rerun:
        out.mkdir()
        (out / early_server.STORE_NAME).write_bytes(b"")
    early_server.start(out, regrade=regrade, executor=executor)
    assert (_early_pid() is not None) == started


def test_is_a_server_started_by_another_thread_not_taken(tmp_path):
    """The server dies with the thread that started it: a pool in another thread starts its own."""
    thread = threading.Thread(target=early_server.start, args=(tmp_path / "out",),
                              kwargs={"regrade": False, "executor": None})
    thread.start()
    thread.join()
    server = _early_pid()
    assert server is not None
    assert early_server.take() is None and not early_server._EARLY


def test_is_a_server_no_pool_took_stopped_when_the_command_ends(tmp_path):
    """`grade --out` with one submission (graded in place) or a bad flag: the server started early goes at exit,
    and its socket folder with it."""
    script = ("import json, sys; from pathlib import Path; from autograder.batch import early_server; "
              "early_server.start(Path(sys.argv[1]), regrade=False, executor=None); "
              "s = early_server._EARLY[0][0]; "
              "print(json.dumps([s._forkserver_pid, str(Path(s._forkserver_address).parent)]))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    pid, folder = json.loads(done.stdout)
    assert not Path(folder).exists()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:  # a zombie of the (now gone) command is reaped by init: it must not be running
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        assert state == "Z"


def test_does_grade_out_start_the_server_before_the_pool_and_the_pool_take_it(tmp_path, monkeypatch):
    """Through the CLI: `grade DIR --out NEW --workers 2` starts the server before it imports the batch, and its
    pool grades with that server; the same command again (a rerun) starts none."""
    import shutil

    from autograder.cli import main

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "corpus"))
    import variants as corpus

    monkeypatch.setenv("AUTOGRADER_CACHE", str(tmp_path / "cache"))
    corpus.warm_goldens(tmp_path / "cache")
    for name in ("ana", "ben"):
        shutil.copytree(corpus.SOLUTIONS, tmp_path / "class" / name / "micrograd",
                        ignore=shutil.ignore_patterns("__pycache__"))
    started, taken = [], []
    real_start, real_take = early_server.start, early_server.take
    monkeypatch.setattr(early_server, "start", lambda *a, **k: (real_start(*a, **k), started.append(_early_pid())))
    monkeypatch.setattr(early_server, "take", lambda: taken.append(real_take()) or taken[-1])
    argv = ["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--workers", "2",
            "--config", str(Path(__file__).resolve().parents[2] / "assignment.toml")]
    assert main(argv) == 0
    assert started and started[0] is not None
    assert len(taken) == 1 and taken[0] is not None and not early_server._EARLY  # the pool took the early one
    started.clear()
    taken.clear()
    (tmp_path / "class" / "cai" / "micrograd").mkdir(parents=True)  # a rerun with one new submission: in place
    shutil.copytree(corpus.SOLUTIONS, tmp_path / "class" / "cai" / "micrograd", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert main(argv) == 0
    assert started == [None] and not taken
