"""Is the next step every failing task opens with short and plain, on every single-mistake variant?

Each variant of tests/corpus/variants.py (solutions/ with one realistic mistake) is graded (conftest's
`graded`, with the hidden cases); every failing task's next step (report/next_step.py: where, which
rule, what to do) is measured as a student reads it: at most MAX_WORDS words, and at most grade
MAX_GRADE on the Flesch-Kincaid scale (textstat), the same step on every run. Research on programming
feedback finds short, specific next steps (about 80-160 words) help most.
"""
from __future__ import annotations

import pytest

import variants as corpus

textstat = pytest.importorskip("textstat", reason="textstat is in the dev extra: pip install -e '.[dev]'")

pytestmark = pytest.mark.corpus

MAX_WORDS = 160
MAX_GRADE = 9.0


def test_does_every_failing_task_of_every_variant_open_with_a_step(graded):
    """Each variant's own task fails on every run, and has a next step each time, the same one."""
    for name, runs in graded.items():
        own = corpus.by_id()[name].task
        steps = [(r.steps or {}).get(own) for r in runs]
        assert steps[0], f"{name}: {own} fails with no next step"
        assert all(s == steps[0] for s in steps), f"{name}: the next step differs between runs"
        assert set(runs[0].steps) == runs[0].hit, f"{name}: a step for each task that lost points, and only those"


def test_is_every_first_block_short_and_plain(graded):
    """At most 160 words and Flesch-Kincaid grade 9 or below, for every failing task of every variant."""
    long, hard = [], []
    for name, runs in graded.items():
        for task, text in (runs[0].steps or {}).items():
            words, grade = len(text.split()), textstat.flesch_kincaid_grade(text)
            if words > MAX_WORDS:
                long.append(f"{name} {task}: {words} words")
            if grade > MAX_GRADE:
                hard.append(f"{name} {task}: grade {grade:.1f}: {text!r}")
    assert not long, "\n".join(long)
    assert not hard, "\n".join(hard)
