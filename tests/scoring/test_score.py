"""Does scoring follow the rubric, keep hidden cases mute, and charge each failure to one task only?"""
from __future__ import annotations

from dataclasses import replace

from autograder.cases.model import Case
from autograder.config import Rubric
from autograder.runner.protocol import CaseOutcome
from autograder.scoring.score import COMPOSITE, NOT_COUNTED, crashed_report, score_run

RUBRIC = Rubric()


def _case(cid: str, task: str, visibility="public", needs=()) -> Case:
    return Case(id=cid, task=task, program="ops.local", params={"a": 12.375}, visibility=visibility,
                title=f"{cid}: a = 12.375", derivation="a.grad = 3 because ...", hint="use +=", hint_when="failed",
                needs=needs)


def _ok(cid, value):
    return CaseOutcome(cid, "ok", obs={"a.grad": value})


def _score(cases, outcomes, **kw):
    goldens = {c.id: {"a.grad": 3.0} for c in cases}
    return score_run("alice", cases, {o.case: o for o in outcomes}, goldens, RUBRIC, **kw)


def test_is_partial_credit_the_share_of_cases_passed():
    cases = [_case(f"mul/{i}", "mul") for i in range(4)]
    report = _score(cases, [_ok("mul/0", 3.0), _ok("mul/1", 3.0), _ok("mul/2", 3.0), _ok("mul/3", 9.0)])
    assert report.task("mul").score == 3.75 and report.task("mul").max_score == 5
    assert report.score == 3.75 and report.max_score == 5


def test_does_a_hidden_case_say_what_went_wrong_in_kind_only():
    """No input, title, derivation or print of a hidden case reaches the report."""
    case = _case("mul/hidden-1", "mul", visibility="hidden")
    out = replace(_ok("mul/hidden-1", 9.0), output="a = 12.375")
    (result,) = _score([case], [out]).task("mul").cases
    assert result.message == "a hidden case gave a different result"
    assert (result.title, result.details, result.output) == ("", (), "")
    public = _score([_case("mul/1", "mul")], [replace(_ok("mul/1", 9.0), output="a = 12.375")])
    assert "12.375" in public.task("mul").cases[0].output


def test_is_a_case_never_run_an_error_not_a_silent_pass():
    (result,) = _score([_case("add/1", "add")], []).task("add").cases
    assert result.status == "error" and "never run" in result.message


def test_is_an_end_to_end_failure_charged_to_backward_while_backward_fails():
    e2e = _case("pow/random-9", "pow", needs=("backward",))
    own = [_case("pow/1", "pow"), _case("backward/1", "backward")]
    broken = _score(own + [e2e], [_ok("pow/1", 3.0), _ok("backward/1", 0.0), _ok("pow/random-9", 0.0)])
    waived = broken.task("pow").cases[-1]
    assert not waived.counted and waived.message.endswith(NOT_COUNTED.format(needs="backward"))
    assert broken.task("pow").score == 5 and broken.task("backward").score == 0
    sound = _score(own + [e2e], [_ok("pow/1", 3.0), _ok("backward/1", 3.0), _ok("pow/random-9", 0.0)])
    assert sound.task("pow").cases[-1].counted and sound.task("pow").score == 2.5


def test_does_a_composite_op_get_the_note_instead_of_the_formula_hint():
    case = _case("tanh/1", "tanh")
    plain = _score([case], [_ok("tanh/1", 0.0)]).task("tanh").cases[0].details
    composite = _score([case], [CaseOutcome("tanh/1", "ok", obs={"a.grad": 0.0, "composite": 1.0})])
    assert "hint: use +=" in plain
    assert COMPOSITE.format(op="tanh") in composite.task("tanh").cases[0].details
    assert not any(d.startswith("hint:") for d in composite.task("tanh").cases[0].details)


def test_does_a_module_that_did_not_import_say_why_without_a_derivation():
    case = _case("neuron/1", "neuron")
    outcome = CaseOutcome("neuron/1", "error", message="nn.py:3: SyntaxError")
    (result,) = _score([case], [outcome], import_errors=(("nn", "nn.py:3: SyntaxError: invalid syntax"),)).task("neuron").cases
    assert result.message == "nn.py:3: SyntaxError" and result.details == ()


def test_does_a_crashed_grading_still_give_every_task_a_row_at_zero():
    report = crashed_report("bob", "the child died", RUBRIC)
    assert report.error == "the child died" and report.score == 0 and report.max_score == 100
    assert [t.id for t in report.tasks] == list(RUBRIC.points)
    only = crashed_report("bob", "x", RUBRIC, tasks=["mul"])
    assert only.max_score == 5
