"""Is a student's engine found by what it is, not where it sits (issue 29.1)?

Every layout of engine_places.py is graded once with the hidden cases (a real child process, the
grading functions the other corpus tests use):
- right code keeps full marks wherever it sits and whatever its package and modules are called,
  the kit's own child modules' names included;
- where two engines are as plausible, one line names both (and the one graded); nowhere else.
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import engine_places as layouts
import variants

pytestmark = pytest.mark.corpus


def _grade(job: tuple[str, str, str]) -> tuple[str, float, float, dict, tuple[str, ...], str | None]:
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    report = grade_path(Path(path), rubric=load_rubric(variants.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    lost = {t.id: [(c.id, c.message) for c in t.cases if c.status != "passed"][:2]
            for t in report.tasks if t.score < t.max_score}
    return name, report.score, report.max_score, lost, report.notes, report.error


@pytest.fixture(scope="module")
def graded(work):
    variants.warm_goldens(work / "goldens")
    jobs = [(lay.id, str(layouts.submission(lay, work / "layouts" / lay.id)), str(work / "goldens"))
            for lay in layouts.LAYOUTS + layouts.GUARDS]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return {name: rest for name, *rest in pool.map(_grade, jobs)}


def test_are_the_layouts_many_and_distinct():
    assert len({lay.id for lay in layouts.LAYOUTS}) == len(layouts.LAYOUTS) >= 16


@pytest.mark.parametrize("layout", [lay for lay in layouts.LAYOUTS + layouts.GUARDS if lay.full],
                         ids=lambda lay: lay.id)
def test_does_right_code_keep_full_marks_wherever_it_sits(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert error is None, error
    assert score == max_score, (layout.why, lost, notes)


@pytest.mark.parametrize("layout", [lay for lay in layouts.LAYOUTS if not lay.full], ids=lambda lay: lay.id)
def test_does_a_script_that_runs_on_cost_only_the_tasks_it_was_taken_for(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert error is None, error
    assert set(lost) <= {"mse_loss", "train"}, (lost, notes)  # the engine's and nn's tasks keep full marks


@pytest.mark.parametrize("layout", [lay for lay in layouts.GUARDS if not lay.full], ids=lambda lay: lay.id)
def test_is_a_copy_kept_for_reference_never_graded_in_place_of_the_students_own_engine(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert error is None, error
    assert "backward" in lost and not any(layouts.FOUND in n for n in notes), (lost, notes)


@pytest.mark.parametrize("layout", [lay for lay in layouts.GUARDS if lay.full], ids=lambda lay: lay.id)
def test_does_a_layout_graded_right_before_stay_as_it_was(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert not any(layouts.FOUND in n for n in notes), notes


@pytest.mark.parametrize("layout", layouts.LAYOUTS + layouts.GUARDS, ids=lambda lay: lay.id)
def test_do_two_engines_as_plausible_get_one_line_naming_both_and_no_other_submission_any(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    lines = [n for n in notes if layouts.AMBIGUOUS in n]
    if not layout.ambiguous:
        assert lines == [], lines
        return
    assert len(lines) == 1, notes
    assert all(name in lines[0] for name in layout.ambiguous), lines[0]
    assert lines[0].endswith(f"{layout.ambiguous[0]} was graded (hand in only the one you mean)"), lines[0]


@pytest.mark.parametrize("layout", [lay for lay in layouts.LAYOUTS if lay.note], ids=lambda lay: lay.id)
def test_does_a_note_say_where_the_engine_was_found(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert any(layout.note in n for n in notes), notes


@pytest.mark.parametrize("layout", [lay for lay in layouts.LAYOUTS if lay.absent], ids=lambda lay: lay.id)
def test_does_no_note_claim_what_the_files_do_not_do(layout, graded):
    score, max_score, lost, notes, error = graded[layout.id]
    assert not any(layout.absent in n for n in notes), notes
