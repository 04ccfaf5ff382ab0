"""Are a pool's workers forked from a server of the pool's own that imported the kit once (batch/fork_server.py),
with nothing more of the grading process in them than a spawned worker had, and gone with it?"""
from __future__ import annotations

import json
import multiprocessing.forkserver
import os
import sys
from pathlib import Path

import pytest

from autograder.batch import fork_server
from autograder.batch.pool import Job, grade_parallel
from autograder.config import load_rubric

from batch_fakes import fake_report, submission

RUBRIC = load_rubric(Path(__file__).resolve().parents[2] / "assignment.toml")
pytestmark = pytest.mark.skipif(not fork_server.wanted(), reason="the workers are spawned here (not Linux)")


def grade_noting(path: Path, *, rubric, name: str):
    """A fake grading that notes what the worker's process is: its pid, its parent, its parent's command line,
    whether LibCST was imported before the job (preloaded), and an environment variable the test set."""
    import gc

    parent = os.getppid()
    note = {"pid": os.getpid(), "ppid": parent, "libcst": "libcst" in sys.modules, "frozen": gc.get_freeze_count(),
            "parent_cmdline": Path(f"/proc/{parent}/cmdline").read_bytes().decode().split("\0"),
            "env": os.environ.get("FORK_SERVER_TEST_MARK")}
    plan = json.loads((Path(path) / "plan.json").read_text())
    Path(plan["note"]).write_text(json.dumps(note))
    return fake_report(name, rubric)


def _graded(tmp_path, names, monkeypatch, mark):
    monkeypatch.setenv("FORK_SERVER_TEST_MARK", mark)
    jobs = [Job(n, str(submission(tmp_path, n, note=str(tmp_path / f"{n}.json")))) for n in names]
    rows = {}
    grade_parallel(jobs, workers=2, grade_one=grade_noting, rubric=RUBRIC,
                   on_done=lambda job, report, why: rows.setdefault(job.student, why))
    assert rows == {n: None for n in names}
    return [json.loads((tmp_path / f"{n}.json").read_text()) for n in names]


def test_are_the_workers_forked_from_a_fresh_server_that_preloaded_the_kit_and_is_gone_after(tmp_path, monkeypatch):
    notes = _graded(tmp_path, ["ana", "ben", "cai", "dan"], monkeypatch, "first")
    servers = {n["ppid"] for n in notes}
    assert len(servers) == 1 and os.getpid() not in servers  # one server, not the grading process
    cmdline = notes[0]["parent_cmdline"]
    # an interpreter exec'd fresh (python -c ...), not a fork of the grading process
    assert cmdline[0] == sys.executable and "-c" in cmdline
    assert any("from autograder.batch.fork_server import serve" in part for part in cmdline)
    assert all(n["libcst"] for n in notes)  # imported by the server, not by each worker
    # what the server imported is kept out of the workers' collections (a full one walks only what a worker made)
    assert all(n["frozen"] > 20_000 for n in notes), [n["frozen"] for n in notes]
    server = servers.pop()
    assert not Path(f"/proc/{server}").exists()  # ended with the pool
    # multiprocessing's global forkserver was never started: the pool's is its own
    assert multiprocessing.forkserver._forkserver._forkserver_pid is None


def test_does_a_second_run_get_a_server_with_the_environment_it_starts_with(tmp_path, monkeypatch):
    """Like a spawned worker, a worker sees the grading process's environment as of its pool's start."""
    first = _graded(tmp_path / "1", ["ana", "ben"], monkeypatch, "first")
    second = _graded(tmp_path / "2", ["ana", "ben"], monkeypatch, "second")
    assert {n["env"] for n in first} == {"first"} and {n["env"] for n in second} == {"second"}
    assert {n["ppid"] for n in first}.isdisjoint({n["ppid"] for n in second})


def test_are_the_workers_spawned_as_before_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv(fork_server.ENV, "spawn")
    notes = _graded(tmp_path, ["ana", "ben"], monkeypatch, "spawned")
    assert {n["ppid"] for n in notes} == {os.getpid()}
    assert not any(n["libcst"] for n in notes)


def test_is_the_servers_socket_in_a_folder_of_the_kits_that_a_killed_runs_next_run_sweeps(tmp_path, monkeypatch):
    """The socket is in a scratch folder (mode 0700, locked while the pool lives): removed with the pool, and
    where the run is killed, swept by the next (scratch.py); under a TMPDIR too long for a socket's path, with no
    memory folder, the workers are spawned."""
    from autograder import scratch

    server = fork_server.Server()
    server.start()
    folder = Path(server._forkserver_address).parent
    try:
        assert folder.name.startswith("autograder-forkserver-") and (folder.stat().st_mode & 0o777) == 0o700
        assert scratch.sweep(str(folder.parent)) == 0 and folder.is_dir()  # held: not swept while it lives
    finally:
        server.stop()
    assert not folder.exists()
    long = tmp_path / ("t" * 60) / ("m" * 60)
    long.mkdir(parents=True)
    monkeypatch.setattr(scratch, "memory", lambda: None)
    monkeypatch.setattr("tempfile.tempdir", str(long))
    assert fork_server.started() == (None, os.getpid())


def test_are_the_corpus_reports_the_same_from_forked_and_spawned_workers(tmp_path, monkeypatch):
    """The corpus's variants with a named mistake, graded by the pool as `grade` does (proofs made in the
    workers): every report byte for byte the same from forked workers as from spawned ones (but its duration)."""
    import dataclasses
    import difflib

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "corpus"))
    import variants as corpus

    from autograder.batch.worker import grade_hidden
    from autograder.report.json_report import render_json

    monkeypatch.setenv("AUTOGRADER_CACHE", str(tmp_path / "cache"))
    corpus.warm_goldens(tmp_path / "cache")
    chosen = [v for v in corpus.VARIANTS if v.id in ("mul-no-rmul", "neuron-no-bias", "add-no-radd")] + \
        list(corpus.VARIANTS[:5])
    jobs = [Job(v.id, str(corpus.build(v, tmp_path / "in" / v.id))) for v in chosen]
    found = {}
    for way in ("spawn", "fork"):
        monkeypatch.setenv(fork_server.ENV, way)
        reports = {}
        grade_parallel(jobs, workers=2, grade_one=grade_hidden, rubric=RUBRIC,
                       on_done=lambda job, report, why: reports.setdefault(job.student, (report, why)))
        found[way] = {s: (render_json(dataclasses.replace(r, duration=0.0)), why) for s, (r, why) in reports.items()}
    assert len(found["fork"]) == len(chosen)
    for student, (text, why) in found["fork"].items():  # what differs, shown line by line
        assert (text, why) == found["spawn"][student], "\n".join(difflib.unified_diff(
            found["spawn"][student][0].splitlines(), text.splitlines(), "spawned", "forked", lineterm="", n=2))
    assert any('"proven": true' in text for text, _ in found["fork"].values())  # proofs were made
