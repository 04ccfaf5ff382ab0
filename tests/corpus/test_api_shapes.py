"""Does the kit tell an API deviation from a mistake by behaviour, and is every hint it shows true (issue 29)?

Every shape of api_shapes.py is graded once with the hidden cases (a real child process):
- each task names exactly the mistakes the shape makes there, nothing on an API deviation;
- an engine whose code is right keeps full marks where it is right, and a note says what the kit did
  or what the API needs;
- no hint (nor named mistake) says what the shape's code does not do (`unsaid`), and the hints that fit
  it are shown (`said`).
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import api_shapes as shapes
import real_shapes
import variants

pytestmark = pytest.mark.corpus


def _grade(job: tuple[str, str, str]):
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    report = grade_path(Path(path), rubric=load_rubric(variants.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    named = {t.id: tuple(d.id for d in t.diagnosis) for t in report.tasks if t.diagnosis}
    lost = {t.id: [(c.id, c.message) for c in t.cases if c.status != "passed"][:3]
            for t in report.tasks if t.score < t.max_score}
    said = [line for t in report.tasks for c in t.cases for line in c.details if line.startswith("hint: ")]
    said += [d.message for t in report.tasks for d in t.diagnosis]
    return name, named, lost, report.notes, report.error, said


@pytest.fixture(scope="module")
def graded(work):
    variants.warm_goldens(work / "goldens")
    jobs = [(s.id, str(real_shapes.submission(s, work / "api-shapes" / s.id)), str(work / "goldens"))
            for s in shapes.SHAPES]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return {name: rest for name, *rest in pool.map(_grade, jobs)}


def test_are_the_shapes_many_and_distinct():
    assert len({s.id for s in shapes.SHAPES}) == len(shapes.SHAPES) >= 12


@pytest.mark.parametrize("shape", shapes.SHAPES, ids=lambda s: s.id)
def test_does_the_kit_name_exactly_the_mistakes_the_shape_makes(shape, graded):
    named, lost, notes, error, said = graded[shape.id]
    assert error is None, error
    assert named == shape.named, (shape.why, named, notes)


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.intact], ids=lambda s: s.id)
def test_does_the_shape_keep_full_marks_where_its_code_is_right(shape, graded):
    named, lost, notes, error, said = graded[shape.id]
    assert not shape.intact & set(lost), ({t: lost[t] for t in shape.intact & set(lost)}, notes)


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.note], ids=lambda s: s.id)
def test_does_a_note_say_what_the_kit_did_or_what_the_api_needs(shape, graded):
    named, lost, notes, error, said = graded[shape.id]
    assert any(shape.note in n for n in notes), notes


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.unsaid], ids=lambda s: s.id)
def test_does_no_hint_say_what_the_code_does_not_do(shape, graded):
    named, lost, notes, error, said = graded[shape.id]
    untrue = {words: [line for line in said if words in line] for words in shape.unsaid}
    assert not {words: lines for words, lines in untrue.items() if lines}
    assert not [n for n in notes if any(words in n for words in shape.unsaid)], notes


@pytest.mark.parametrize("shape", [s for s in shapes.SHAPES if s.said], ids=lambda s: s.id)
def test_is_the_hint_that_fits_the_code_shown(shape, graded):
    named, lost, notes, error, said = graded[shape.id]
    assert all(any(words in line for line in said) for words in shape.said), said
