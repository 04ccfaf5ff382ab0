"""Does an engine written in another style get the verdict its code deserves?

Each correct style scores full marks on public and hidden cases; an engine with one
real bug loses points in that bug's task only. Real gradings (sandboxed child).
"""
from __future__ import annotations

import pytest

from autograder.config import Rubric
from autograder.grading import grade_path
import style_engines as engines

RUBRIC = Rubric(hidden_seed=1234)


def grade(root):
    return grade_path(root, rubric=RUBRIC, include_hidden=True)


def lost(report) -> dict[str, float]:
    return {t.id: round(t.max_score - t.score, 3) for t in report.tasks if t.score < t.max_score}


@pytest.mark.parametrize("style", sorted(engines.STYLES))
def test_does_a_correct_engine_of_this_style_get_full_marks(style, tmp_path):
    report = grade(engines.submission(tmp_path / style, engines.STYLES[style]()))
    assert report.error is None, report.error
    assert lost(report) == {}, [(c.id, c.message) for t in report.tasks for c in t.cases if c.status != "passed"][:5]


def test_do_loose_files_importing_each_other_by_plain_name_get_full_marks(tmp_path):
    report = grade(engines.submission(tmp_path / "flat", engines.ENGINE, flat=True))
    assert report.error is None and lost(report) == {}


def test_does_a_pow_that_puts_its_exponent_in_prev_lose_pow_points_only(tmp_path):
    """Every real backward() through ** crashes on it; it once kept pow 5/5 and backward 15/15."""
    report = grade(engines.submission(tmp_path / "pow", engines.pow_exponent_in_prev()))
    assert set(lost(report)) == {"pow"}
    failing = [c for c in report.task("pow").cases if c.status != "passed"]
    assert failing and all("through_backward" not in c.message for c in failing)
    assert any("_prev" in " ".join(c.details) for c in failing if c.visibility == "public")


def test_does_an_mlp_that_skips_its_last_layer_lose_mlp_points_only(tmp_path):
    nn = engines._sub(engines.NN, "        for layer in self.layers:", "        for layer in self.layers[:-1]:")
    report = grade(engines.submission(tmp_path / "mlp", engines.ENGINE, nn=nn))
    assert set(lost(report)) == {"mlp"}
    assert {t.id: [d.id for d in t.diagnosis] for t in report.tasks if t.diagnosis} == {"mlp": ["mlp_call_skips_layer"]}
    assert report.task("mlp").diagnosis[0].proven  # with every layer fed, every mlp case passes


def test_does_a_composite_tanh_with_a_wrong_exp_get_no_hint_about_one_minus_a_squared(tmp_path):
    """tanh from exp inherits exp's bug; the tanh hint (1 - a**2, for a one-closure tanh) would mislead."""
    engine = engines._sub(engines.composite_tanh(), "self.grad += out.data * out.grad", "self.grad += self.data * out.grad")
    report = grade(engines.submission(tmp_path / "ctanh", engine))
    assert set(lost(report)) == {"tanh", "exp"}
    # exp's own mistake is named in exp; tanh, built on it, fits no one mistake of its own: nothing named there
    assert {t.id: [d.id for d in t.diagnosis] for t in report.tasks if t.diagnosis} == {"exp": ["derivative_at_input"]}
    details = " ".join(line for c in report.task("tanh").cases for line in c.details)
    assert "1 - a**2" not in details and "built from other operations" in details


def test_is_an_engine_whose_slotted_value_keeps_its_children_in_another_name_adapted_to(tmp_path):
    """A Value with __slots__ that keeps its children in _kids, not _prev: its own ops fill _kids, so
    the kit uses _kids (issue 18), says so in a note, and the engine, right, gets full marks (it
    once got a TypeError from the kit's nodes, then a line naming what the API needs)."""
    engine = engines.slots().replace("_prev", "_kids")
    report = grade(engines.submission(tmp_path / "kids", engine))
    assert lost(report) == {}
    assert any("`_kids`" in note for note in report.notes), report.notes


def test_does_an_engine_whose_children_the_kit_cannot_find_say_what_the_api_needs(tmp_path):
    """Children kept as (child, derivative) pairs: nothing holds a node's operands themselves, so
    nothing is adapted; one line names what the exercise API needs, and no mistake is named."""
    engine = engines._sub(engines._sub(engines.ENGINE, "self._prev = set(_children)",
                                       "self.parents = [(c, 1.0) for c in _children]"),
                          "for child in v._prev:", "for child, _ in v.parents:")
    report = grade(engines.submission(tmp_path / "pairs", engine))
    assert any("exercise API keeps them in `_prev`" in note for note in report.notes), report.notes
    assert not [t.diagnosis for t in report.tasks if t.diagnosis]


@pytest.mark.parametrize("bug, old, new", [
    ("relu-at-zero", "(out.data > 0) * out.grad", "(self.data >= 0) * out.grad"),
])
def test_is_relus_kink_hit_hard_enough(bug, old, new, tmp_path):
    """relu passing the gradient at exactly 0 once cost 0.77 of 5 points."""
    report = grade(engines.submission(tmp_path / bug, engines._sub(engines.ENGINE, old, new)))
    assert set(lost(report)) == {"relu"}
    assert lost(report)["relu"] >= 1.5
