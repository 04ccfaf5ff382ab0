"""The grader-strength corpus: the `corpus` marker, and its table in the terminal summary.

The corpus tests run by default (deselect them with `-m "not corpus"`). The
table of variants and tasks hit is printed at the end of the run when asked for
(`-v`) or when a test failed: `make test` stays quiet when all is well.
"""
from __future__ import annotations

import fcntl
import pickle
import time
from pathlib import Path

import pytest

import variants as corpus

SUMMARY_KEY = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "corpus: grades the corpus of single-bug variants of solutions/ (runs by default; "
        "deselect with -m 'not corpus')",
    )


@pytest.fixture(scope="session")
def corpus_summary(request: pytest.FixtureRequest):
    """Tests call this with the table text; it is printed in the terminal summary."""
    def record(text: str) -> None:
        request.config.stash[SUMMARY_KEY] = text
    return record


@pytest.fixture(scope="session")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("corpus")


@pytest.fixture(scope="session")
def graded(work, corpus_summary, tmp_path_factory, worker_id):
    """Every variant graded corpus.RUNS times with the hidden cases: name -> [Graded per run].

    Under pytest-xdist the test files that use it run on different workers: the first to need
    it grades the corpus, the others wait on a lock and read its results (pytest-xdist's own
    recipe for a session fixture computed once), so `make test` grades it once, not per worker.
    """
    if worker_id == "master":
        results, text = _grade(work)
        corpus_summary(text)
        return results
    shared = tmp_path_factory.getbasetemp().parent / "corpus-graded.pickle"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            results, text = pickle.loads(shared.read_bytes())
        else:
            results, text = _grade(work)
            shared.write_bytes(pickle.dumps((results, text)))
    corpus_summary(text)
    return results


def _grade(work: Path) -> tuple[dict, str]:
    """The corpus's results and their table."""
    started = time.monotonic()
    results = corpus.grade_corpus(work, runs=corpus.RUNS, workers=2)
    seconds = time.monotonic() - started
    return results, corpus.table(results) + f"\n{len(corpus.VARIANTS)} variants x {corpus.RUNS} runs graded in {seconds:.1f} s"


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    text = config.stash.get(SUMMARY_KEY, None)
    if text and (config.get_verbosity() > 0 or exitstatus != 0):
        terminalreporter.section("grader strength: single-bug corpus")
        terminalreporter.write_line(text)
