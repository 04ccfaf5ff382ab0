"""Is a feedback page safe to open (escaped, self-contained) and silent about hidden cases?"""
from __future__ import annotations

import re

from autograder.report.html_report import render_feedback
from report_fakes import case, report, task

EVIL = "<script>alert('x')</script>"


def test_student_controlled_text_is_escaped_everywhere():
    r = report(
        f"{EVIL}.zip",
        task("mul", case("m1", "error", message=f"ValueError: {EVIL}", title=f"title {EVIL}",
                         details=(f"got: {EVIL}",))),
        error=None,
    )
    r = r.__class__(**{**r.__dict__, "notes": (f"skipped file {EVIL}.py",)})
    page = render_feedback(r, student=f"{EVIL} & co")
    assert "<script" not in page
    assert page.count("&lt;script&gt;") >= 5


def test_an_error_message_is_escaped_too():
    page = render_feedback(report("ana", task("add"), error=f"could not import: {EVIL}"))
    assert "<script" not in page and "could not import: &lt;script&gt;" in page


def test_public_cases_are_shown_in_full():
    r = report("ana", task("mul", case("m1", "failed", message="got 3.0, expected 6.0", title="a*b, upstream 2",
                                       details=("derivation: d(ab)/da = b",))))
    page = render_feedback(r)
    for text in ("got 3.0, expected 6.0", "a*b, upstream 2", "derivation: d(ab)/da = b"):
        assert text in page


def test_a_hidden_case_shows_whether_it_passed_and_nothing_else():
    hidden = case("mul-hidden-SECRETID", "failed", "hidden", message="SECRETMESSAGE with inputs 1.5, -2",
                  title="SECRETTITLE", details=("SECRETDETAIL",))
    page = render_feedback(report("ana", task("mul", case("m1"), hidden, case("mul-hidden-2", "passed", "hidden"))))
    assert "SECRET" not in page
    assert "Hidden cases: 1 of 2 passed" in page


def test_the_page_is_self_contained():
    page = render_feedback(report("ana", task("add", case("a"))))
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert not re.search(r"<(link|script|img|iframe)\b|@import|url\(|https?://", page)


def test_is_the_likely_mistake_shown_with_its_code_as_code_and_still_escaped():
    from dataclasses import replace

    from autograder.report.model import Diagnosis

    t = replace(task("mul", case("m1", "failed")),
                diagnosis=(Diagnosis("overwrites_grad", f"`x.grad = ...` overwrites: use `+=` {EVIL}"),))
    page = render_feedback(report("ana", t))
    assert "<dt>Rule</dt><dd>Likely mistake: <code>x.grad = ...</code> overwrites: use <code>+=</code> &lt;script&gt;" in page
    assert "<script" not in page


def test_does_a_refused_submission_show_its_one_reason_and_no_empty_panels():
    """A submission that could not be graded: the reason once, not a panel per task saying no case ran."""
    tasks = [task(t) for t in ("add", "mul", "backward", "neuron")]
    page = render_feedback(report("ana", *tasks, error="imports torch, which this assignment forbids"))
    assert "imports torch, which this assignment forbids" in page
    assert "<details" not in page and "No cases ran for this task" not in page


def test_is_the_hidden_case_hint_given_only_where_the_public_cases_pass():
    """An nn task whose module has a SyntaxError fails public and hidden cases alike: its message says why,
    and no hint about hidden inputs (least of all an op's: upstream gradients, nodes used twice)."""
    syntax = case("n1", "error", message="micrograd/nn.py:46: SyntaxError: expected ':'")
    broken = task("neuron", syntax, case("n-h1", "error", "hidden"))
    page = render_feedback(report("ana", broken))
    assert "Hidden cases use inputs you have not seen" not in page and "upstream gradient" not in page


def test_does_the_hidden_case_hint_name_what_an_ops_hidden_cases_try_and_only_for_an_op():
    op = task("mul", case("m1"), case("m-h1", "failed", "hidden"))
    page = render_feedback(report("ana", op))
    assert "They fail while the public ones pass" in page and "an upstream gradient other than 1" in page
    nn = task("neuron", case("n1"), case("n-h1", "failed", "hidden"))
    page = render_feedback(report("ana", nn))
    assert "They fail while the public ones pass" in page and "upstream gradient" not in page


def test_does_the_pages_environment_read_x_dot_name_as_jinja_does():
    """The pages' environment reads a plain dict's key at once (no AttributeError first): does it give what
    jinja's own getattr gives, for a key, a missing key, a key named like a dict method, and other objects?"""
    import jinja2

    from autograder.report.jinja_env import template

    ours, theirs = template("feedback.html.j2").environment, jinja2.Environment(undefined=jinja2.StrictUndefined)
    view = {"title": "t", "items": "a key named like a method", "n": None}
    for obj, name in [(view, "title"), (view, "n"), (view, "missing"), (view, "items"), (view, "get"),
                      ("text", "upper"), (["x"], "missing")]:
        got, expected = ours.getattr(obj, name), theirs.getattr(obj, name)
        assert type(got) is type(expected), (obj, name)
        assert isinstance(got, jinja2.Undefined) or got == expected, (obj, name)


def test_are_the_hidden_cases_marks_one_span_each_in_order():
    """The marks are built in Python now, not in the template: is each hidden case still one span, ✓ passed,
    ✗ failed, – not counted, in the cases' order?"""
    from dataclasses import replace

    waived = replace(case("h3", "failed", visibility="hidden"), counted=False)
    page = render_feedback(report("ana", task("mul", case("m1"), case("h1", visibility="hidden"),
                                              case("h2", "error", visibility="hidden"), waived)))
    assert ('<span aria-hidden="true"><span class="passed">✓</span><span class="failed">✗</span>'
            '<span class="muted">–</span></span>') in page
