"""Are goldens, cases and source digests computed once per process, and still right?"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.cases.model import Case
from autograder.config import ConfigError, Rubric
from autograder.goldens import store as golden_store
from autograder.goldens.store import GoldenStore, cases_digest
from autograder import grading


def cases(n: int = 3, x: float = 1.0) -> list[Case]:
    return [Case(f"add/c{i}", "add", "ops.add", {"a": x, "b": i}) for i in range(n)]


@pytest.fixture
def fresh_memory(monkeypatch):
    """Nothing kept in memory from other tests; compute_goldens and read_goldens counted."""
    monkeypatch.setattr(golden_store, "_IN_MEMORY", {})
    counts = {"computed": 0, "read": 0}

    def compute(cs):
        counts["computed"] += 1
        return {c.id: {"out": c.params["a"] + c.params["b"]} for c in cs}

    real_read = golden_store.read_goldens

    def read(path, digest):
        counts["read"] += 1
        return real_read(path, digest)

    monkeypatch.setattr(golden_store, "compute_goldens", compute)
    monkeypatch.setattr(golden_store, "read_goldens", read)
    return counts


def test_goldens_are_computed_once_then_kept_in_memory(tmp_path, fresh_memory):
    store = GoldenStore(cache_dir=tmp_path, shipped=tmp_path / "none.json")
    first = store.goldens(cases(), activation="tanh")
    reads = fresh_memory["read"]
    again = GoldenStore(cache_dir=tmp_path, shipped=tmp_path / "none.json").goldens(cases(), activation="tanh")

    assert first == again == {"add/c0": {"out": 1.0}, "add/c1": {"out": 2.0}, "add/c2": {"out": 3.0}}
    assert fresh_memory["computed"] == 1 and fresh_memory["read"] == reads, "no second compute, no file read"
    assert len(list(tmp_path.glob("goldens-*.json"))) == 1, "and the cache file is written for the next process"


def test_a_new_process_reads_the_cache_file(tmp_path, fresh_memory, monkeypatch):
    GoldenStore(cache_dir=tmp_path, shipped=tmp_path / "none.json").goldens(cases())
    monkeypatch.setattr(golden_store, "_IN_MEMORY", {})  # as a new process starts
    found = GoldenStore(cache_dir=tmp_path, shipped=tmp_path / "none.json").goldens(cases())
    assert fresh_memory["computed"] == 1 and found["add/c2"] == {"out": 3.0}


def test_other_cases_or_another_activation_get_their_own_goldens(tmp_path, fresh_memory):
    store = GoldenStore(cache_dir=tmp_path, shipped=tmp_path / "none.json")
    a = store.goldens(cases(x=1.0))
    b = store.goldens(cases(x=5.0))  # same ids, other parameters
    c = store.goldens(cases(x=1.0), activation="relu")
    assert a["add/c0"] == {"out": 1.0} and b["add/c0"] == {"out": 5.0}
    assert fresh_memory["computed"] == 3 and c == a
    assert len({cases_digest(cases(x=1.0), "tanh"), cases_digest(cases(x=5.0), "tanh"),
                cases_digest(cases(x=1.0), "relu")}) == 3


def test_source_digests_are_hashed_once_per_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(golden_store, "_SOURCE_DIGESTS", {})
    (tmp_path / "a.py").write_text("x = 1\n")
    first = golden_store._source_digest(tmp_path)
    (tmp_path / "a.py").write_text("x = 2\n")  # (sources don't change under a running grader)
    assert golden_store._source_digest(tmp_path) == first
    monkeypatch.setattr(golden_store, "_SOURCE_DIGESTS", {})
    assert golden_store._source_digest(tmp_path) != first, "a new process sees the change"


def test_select_cases_builds_once_and_hands_out_a_fresh_list(monkeypatch):
    built = []
    real = grading.build_cases
    monkeypatch.setattr(grading, "_CASES", {})
    monkeypatch.setattr(grading, "build_cases", lambda **kw: built.append(kw) or real(**kw))
    rubric = Rubric(hidden_seed=7)

    first = grading.select_cases(rubric, include_hidden=True)
    first.clear()
    second = grading.select_cases(rubric, include_hidden=True)

    assert len(built) == 2  # public and hidden, once
    assert second and second == grading.select_cases(rubric, include_hidden=True)
    assert any(c.visibility == "hidden" for c in second)
    assert not any(c.visibility == "hidden" for c in grading.select_cases(rubric, include_hidden=False))
    other_seed = grading.select_cases(replace(rubric, hidden_seed=8), include_hidden=True)
    assert [c.params for c in other_seed] != [c.params for c in second]
    some = grading.select_cases(rubric, include_hidden=True, tasks=["mul", "add"])
    assert {c.task for c in some} == {"add", "mul", "backward"}  # backward's own cases judge the end-to-end ones
    assert all(not c.needs for c in some if c.task == "backward")
    assert some == grading.select_cases(rubric, include_hidden=True, tasks=["add", "mul"])


def test_select_cases_still_refuses_a_missing_seed_or_an_unknown_task():
    with pytest.raises(ConfigError, match="hidden seed"):
        grading.select_cases(Rubric(hidden_seed=None), include_hidden=True)
    with pytest.raises(ConfigError, match="unknown task"):
        grading.select_cases(Rubric(hidden_seed=1), include_hidden=True, tasks=["nope"])


class _NoGoldens:
    def goldens(self, cases, *, activation="tanh"):
        return {}


def test_a_submission_that_never_ran_says_sandbox_none(tmp_path):
    rubric = Rubric(hidden_seed=1)
    empty = tmp_path / "empty"
    empty.mkdir()
    for path in (empty,):  # (a torch import is judged in the sandbox: tests/test_grading.py)
        report = grading.grade_path(path, rubric=rubric, include_hidden=False, store=_NoGoldens())
        assert report.error and report.sandbox == "none", (path, report.error)


def test_is_the_digest_of_the_same_case_objects_computed_once_and_of_others_afresh(tmp_path, fresh_memory, monkeypatch):
    """A worker asks for the goldens of the same cases (select_cases' objects) for every submission: is their
    digest (JSON of every case, hashed) computed once, and are equal but new cases, another activation or
    changed cases still given their own?"""
    monkeypatch.setattr(golden_store, "_DIGESTS", {})
    calls = []
    real = golden_store.cases_digest
    monkeypatch.setattr(golden_store, "cases_digest", lambda cs, activation: calls.append(1) or real(cs, activation))
    store, same = GoldenStore(cache_dir=tmp_path), cases()
    for _ in range(3):
        store.goldens(list(same))  # a fresh list of the same objects, as select_cases hands out
    assert len(calls) == 1
    assert store.goldens(cases()) == store.goldens(same)  # equal cases, other objects: the same digest
    assert store.goldens(cases(x=2.0))["add/c0"] == {"out": 2.0}
    store.goldens(same, activation="relu")
    assert len(calls) == 4


def _compute_in_a_process(cache: str, log: str) -> dict:
    """As a grading process would: its own memory, the shared cache folder; a slow compute that logs."""
    import time

    def slow(cs):
        with open(log, "a") as f:
            f.write("computed\n")
        time.sleep(1.0)
        return {c.id: {"out": c.params["a"] + c.params["b"]} for c in cs}

    golden_store.compute_goldens = slow
    return GoldenStore(cache_dir=Path(cache), shipped=Path(cache) / "none.json").goldens(cases())


def test_do_two_processes_that_need_the_same_goldens_at_once_compute_them_once(tmp_path):
    log = tmp_path / "computes.log"
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        results = list(pool.map(_compute_in_a_process, [str(tmp_path)] * 2, [str(log)] * 2))
    assert results[0] == results[1] == {"add/c0": {"out": 1.0}, "add/c1": {"out": 2.0}, "add/c2": {"out": 3.0}}
    assert log.read_text() == "computed\n", "the second waited for the first's file and read it"


def test_are_computed_goldens_the_ones_a_later_run_reads_back_keys_in_order_too(tmp_path, monkeypatch):
    """The run that computes a set of goldens grades with what every later run reads from the cache, in the same
    order: compare() walks a golden's keys, so a case whose `out` and `connected` are both wrong said "out: ..."
    first when the goldens were computed (the program's order) and "connected: ..." when read (the file's sorted
    keys): the same submission's report differed between the first run and the next."""
    import json

    from autograder.config import load_rubric
    from autograder.grading import select_cases

    monkeypatch.setattr(golden_store, "_IN_MEMORY", {})
    rubric = load_rubric(Path(__file__).resolve().parents[2] / "assignment.toml")
    chosen = [c for c in select_cases(rubric, include_hidden=True) if c.task == "neuron"][:3]
    computed = GoldenStore(tmp_path).goldens(chosen, activation=rubric.activation)
    monkeypatch.setattr(golden_store, "_IN_MEMORY", {})
    read = GoldenStore(tmp_path).goldens(chosen, activation=rubric.activation)
    assert any(len(golden) > 1 for golden in computed.values())
    assert json.dumps(computed) == json.dumps(read)  # order-sensitive, unlike ==
