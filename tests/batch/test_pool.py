"""Does the pool keep its workers grading while the parent stores what they finished (issue 23)?"""
from __future__ import annotations

import time
from pathlib import Path

from autograder.batch.pool import Job, grade_parallel
from autograder.config import load_rubric

from batch_fakes import calls, grade_fake, submission

RUBRIC = load_rubric(Path(__file__).resolve().parents[2] / "assignment.toml")


def test_does_a_worker_start_the_next_submission_while_the_parent_stores_the_last(tmp_path):
    """With one worker, the second submission is graded during on_done of the first (its feedback
    page, its row), not after it."""
    log = tmp_path / "log"
    jobs = [Job(name, str(submission(tmp_path, name, log=log))) for name in ("s1", "s2")]
    seen_during: dict[str, list[str]] = {}

    def on_done(job, report, why):
        assert why is None
        end = time.monotonic() + 30
        while job.student == "s1" and "s2" not in calls(log) and time.monotonic() < end:
            time.sleep(0.05)
        seen_during[job.student] = calls(log)

    grade_parallel(jobs, workers=1, grade_one=grade_fake, rubric=RUBRIC, on_done=on_done)
    assert seen_during["s1"] == ["s1", "s2"]
    assert set(seen_during) == {"s1", "s2"}


def test_a_submission_handed_over_ahead_is_no_suspect_when_the_worker_dies_before_starting_it(tmp_path):
    """A worker has its next submission before it finishes the last; when the last kills it, only that
    one is a suspect: the next is graded once, as usual, not retried alone with it."""
    log = tmp_path / "log"
    plans = {"ana": "exit", "ben": "ok", "cai": "ok"}
    jobs = [Job(name, str(submission(tmp_path, name, do=do, log=log))) for name, do in plans.items()]
    rows = {}
    grade_parallel(jobs, workers=1, grade_one=grade_fake, rubric=RUBRIC,
                   on_done=lambda job, report, why: rows.setdefault(job.student, why))
    assert calls(log) == ["ana", "ben", "cai"]
    assert rows["ana"] is not None and rows["ben"] is None and rows["cai"] is None
