"""Does the terminal report count what it leaves out as it is: failing cases apart from those not counted?"""
from __future__ import annotations

from rich.console import Console

from autograder.report.model import CaseResult
from autograder.report.text import print_report
from report_fakes import case, report, task


def _text(r) -> str:
    console = Console(record=True, width=200, highlight=False)
    print_report(r, console)
    return console.export_text()


def test_are_the_cases_left_out_counted_apart_from_those_not_counted_here():
    """4 different failures and 2 failing through backward: the first shown, then 3 more failing and 2 not counted."""
    failing = [case(f"m{i}", "failed", message=f"a.grad: got {i}, expected 0", title=f"case {i}") for i in range(4)]
    waived = [CaseResult(f"e{i}", "failed", message=f"end to end {i} (not counted here)", title=f"e2e {i}",
                         counted=False, charged_to=("backward",)) for i in range(2)]
    text = _text(report("ana", task("mul", *waived, *failing)))
    assert "… and 3 more failing cases and 2 not counted here (--verbose shows them)" in text
    assert "e2e 0" not in text  # the cases that count are the ones shown first


def test_does_a_submission_that_could_not_be_graded_say_its_reason_once():
    text = _text(report("ana", task("add"), task("mul"), error="no Python file in ana.zip"))
    assert "Could not grade: no Python file in ana.zip" in text
    assert "error" not in text.replace("Could not grade", "")  # no table of 0/0 error rows


def test_does_the_waiting_note_name_the_task_it_waits_for():
    waived = CaseResult("e1", "failed", message="x (not counted here)", counted=False, charged_to=("backward",))
    text = _text(report("ana", task("mul", case("m1"), waived), task("backward", case("b1", "failed"))))
    assert ("note: mul passes, but 1 of its end-to-end cases fails through backward, which fails its own "
            "cases: it counts once backward passes (--verbose shows them)") in text


def test_is_a_students_emoji_code_shown_as_typed(capsys):
    """rich turns `:smile:` into an emoji by default: what the student's code printed is shown as it printed it."""
    r = report("ana", task("mul", case("m1", "failed", message="got :smile: and :x:", details=("printed :thumbs_up:",))))
    print_report(r, verbose=True)
    out = capsys.readouterr().out
    assert ":smile:" in out and ":thumbs_up:" in out and not [c for c in out if ord(c) >= 0x1F300]  # no emoji
