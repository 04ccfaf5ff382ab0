"""Does the kit say only what is true of engines in the shapes real students write (issue 18)?

Every shape of real_shapes.py is graded once with the hidden cases (a real child process).
- no shape is ever given a wrong name: each task names exactly the mistakes the shape makes
  there (`named`), or nothing where the shape says it is honestly left unnamed;
- an engine that keeps its children under another name, imports its own package by its own
  name or keeps numpy grads is adapted to: full marks where its code is right, and a note
  saying what the kit did;
- an API deviation the kit can't adapt to gets its own plain line in the notes, never an
  algorithm's name.
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import real_shapes as shapes
import variants

pytestmark = pytest.mark.corpus


def _grade(job: tuple[str, str, str]) -> tuple[str, dict, dict, tuple[str, ...], str | None]:
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    report = grade_path(Path(path), rubric=load_rubric(variants.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    named = {t.id: tuple(d.id for d in t.diagnosis) for t in report.tasks if t.diagnosis}
    lost = {t.id: [(c.id, c.message) for c in t.cases if c.status != "passed"][:3]
            for t in report.tasks if t.score < t.max_score}
    return name, named, lost, report.notes, report.error


@pytest.fixture(scope="module")
def graded(work):
    variants.warm_goldens(work / "goldens")
    jobs = [(s.id, str(shapes.submission(s, work / "shapes" / s.id)), str(work / "goldens")) for s in shapes.SHAPES]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return {name: rest for name, *rest in pool.map(_grade, jobs)}


def test_are_the_shapes_many_and_distinct():
    assert len({s.id for s in shapes.SHAPES}) == len(shapes.SHAPES) >= 16


@pytest.mark.parametrize("shape", shapes.SHAPES, ids=lambda s: s.id)
def test_does_the_kit_name_exactly_the_mistakes_the_shape_makes(shape, graded):
    named, lost, notes, error = graded[shape.id]
    assert error is None, error
    assert named == shape.named, (shape.why, named)


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.intact], ids=lambda s: s.id)
def test_does_an_adapted_engine_keep_full_marks_where_its_code_is_right(shape, graded):
    named, lost, notes, error = graded[shape.id]
    assert not shape.intact & set(lost), {t: lost[t] for t in shape.intact & set(lost)}


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.note], ids=lambda s: s.id)
def test_does_a_note_say_what_the_kit_adapted_or_what_the_api_needs(shape, graded):
    named, lost, notes, error = graded[shape.id]
    assert any(shape.note in n for n in notes), notes
