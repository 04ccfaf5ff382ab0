"""The grader's strength and isolation, measured on a corpus of single-bug variants.

Every variant of tests/corpus/variants.py is built into a temporary folder
(solutions/micrograd with one edit) and graded with the hidden cases, three full
passes over the corpus, two variants at a time, all with one golden cache. Then:

- every variant loses points in its own task, on every run, with the same
  scores on every run (a case must catch its bug whatever the memory layout);
- on average a variant costs points in at most 1.5 tasks (the variants that
  cost more are listed in the terminal summary, with the cases that caught them);
- solutions/ gets full marks, exercises/ gets 0 with every task `missing`.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import variants as corpus

pytestmark = pytest.mark.corpus

MAX_AVERAGE_HITS = 1.5  # the corpus is graded corpus.RUNS times by conftest's `graded`


def _grade(path: Path, work: Path):
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    return grade_path(path, rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=True,
                      store=GoldenStore(cache_dir=work / "goldens"))


def test_every_variant_is_a_valid_single_edit():
    assert len(corpus.VARIANTS) >= 45
    assert len(corpus.by_id()) == len(corpus.VARIANTS), "variant ids must be unique"
    assert set(KNOWN_GAPS) <= set(corpus.by_id())
    from autograder.tasks import TASK_IDS
    for v in corpus.VARIANTS:
        assert v.task in TASK_IDS, v.id
        assert v.file in corpus.FILES, v.id
        assert v.why, v.id
        corpus.variant_source(v)  # the snippet occurs once, the edit changes it, the file parses


# Variants the case library does not catch yet: xfail(strict), so that a case
# catching one turns this into a failure, and the entry is then removed.
KNOWN_GAPS: dict[str, str] = {
}


def _caught_param(v):
    if v.id in KNOWN_GAPS:
        return pytest.param(v.id, marks=pytest.mark.xfail(reason=KNOWN_GAPS[v.id], strict=True))
    return v.id


@pytest.mark.parametrize("name", [_caught_param(v) for v in corpus.VARIANTS])
def test_variant_loses_points_in_its_own_task_on_every_run(graded, name):
    runs = graded[name]
    assert len(runs) == corpus.RUNS
    v = corpus.by_id()[name]
    missed = [r.run for r in runs if v.task not in r.hit]
    assert not missed, f"{name} ({v.why}) costs no points in {v.task} on run(s) {missed}"


def test_no_variant_crashes_the_grading(graded):
    crashed = {name: runs[0].error for name, runs in graded.items() if any(r.error for r in runs)}
    assert not crashed


def test_grading_is_deterministic(graded):
    differing = {
        name: sorted({r.score_key for r in runs})
        for name, runs in graded.items()
        if len({r.score_key for r in runs}) != 1
    }
    assert not differing, f"scores that change from run to run: {sorted(differing)}"


def test_bugs_stay_in_their_own_task_on_average(graded):
    average = corpus.average_hits(graded)
    assert average <= MAX_AVERAGE_HITS, (
        f"a bug costs points in {average:.2f} tasks on average (at most {MAX_AVERAGE_HITS}):\n"
        + corpus.table(graded)
    )


def test_solutions_get_full_marks(work):
    dest = work / "solutions-copy"
    corpus.build(None, dest)
    report = _grade(dest, work)
    assert report.error is None
    failing = {t.id: [(c.id, c.status, c.message) for c in t.cases if c.status != "passed"][:3]
               for t in report.tasks if t.status != "passed" or t.score != t.max_score}
    assert not failing
    assert report.score == report.max_score > 0
    assert {c.visibility for t in report.tasks for c in t.cases} == {"public", "hidden"}


def test_exercises_get_zero_and_every_task_missing(work):
    dest = work / "exercises-copy"
    shutil.copytree(corpus.EXERCISES, dest / "micrograd")
    report = _grade(dest, work)
    assert report.error is None, report.error
    assert report.score == 0
    from autograder.tasks import TASK_IDS
    assert [t.id for t in report.tasks] == list(TASK_IDS)
    not_missing = {t.id: sorted({c.status for c in t.cases}) for t in report.tasks if t.status != "missing"}
    assert not not_missing
    assert all(t.cases for t in report.tasks)
