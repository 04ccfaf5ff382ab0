"""Which failing public case shows its hint: the one whose condition its observations fit (issue 29).

A case's hint is a claim about the student's code (`with =, the second assignment overwrites...`), so it
is shown only where what the case observed fits it (cases/hint_when.py: each hint's condition); and where
the task's likely mistake is named, only a hint that agrees with it (hint_when.AGREES): the named mistake
says what to fix, and a case's hint never says otherwise. Added after the diagnosis, as the last line of
the case's details (after its derivation), as `_case_result` left room for it.
"""
from __future__ import annotations

from dataclasses import replace

from autograder.cases.hint_when import AGREES, WHEN, Seen
from autograder.cases.model import Case
from autograder.goldens.compute import MISTAKES
from autograder.report.model import CaseResult, TaskResult
from autograder.runner.protocol import CaseOutcome

PREFIX = "hint: "
SHOWN = ("failed", "error")  # a stub (missing) or a timeout says what to do in its own message


def hinted(result: TaskResult, cases: list[Case], outcomes: dict[str, CaseOutcome], goldens: dict[str, dict],
           close, explained) -> TaskResult:
    """result with the hint of each failing public case whose condition fits. explained(case, outcome): the
    case's details explain it (its module imported), as score.py judged when it wrote them."""
    if not any(r.status in SHOWN and r.visibility == "public" for r in result.cases):
        return result  # most tasks of a class: nothing to hint
    by_id = {c.id: c for c in cases if c.task == result.id}
    named = {d.id for d in result.diagnosis}
    own = [r for r in result.cases if r.id in by_id and not by_id[r.id].needs]
    own_passed = bool(own) and all(r.status == "passed" for r in own)
    probes = tuple(_probes(by_id.values(), outcomes, goldens))
    failing = tuple(by_id[r.id].params for r in result.cases if r.id in by_id and r.status in SHOWN)
    out = []
    for r in result.cases:
        case, outcome = by_id.get(r.id), outcomes.get(r.id)
        if case is not None and outcome is not None and _shows(case, r, outcome, explained):
            seen = Seen(status=r.status, obs=outcome.obs, golden=goldens.get(case.id, {}), params=case.params,
                        close=close, probes=probes, own_passed=own_passed, counted=r.counted,
                        message=r.message, failing=failing)
            fits = WHEN.get(case.hint_when)  # a case made without a condition: its hint is never shown
            if fits is not None and fits(seen) and (not named or named & AGREES[case.hint_when]):
                r = replace(r, details=r.details + (PREFIX + case.hint,))
        out.append(r)
    return replace(result, cases=tuple(out))


def _shows(case: Case, r: CaseResult, outcome: CaseOutcome, explained) -> bool:
    return (bool(case.hint) and r.visibility == "public" and r.status in SHOWN and explained(case, outcome)
            and outcome.obs.get("composite") != 1.0)  # an op made of ops: score.COMPOSITE says where to look


def _probes(cases, outcomes: dict[str, CaseOutcome], goldens: dict[str, dict]):
    """(the student's probes, the right engine's) of each case of the task that has both."""
    for case in cases:
        outcome = outcomes.get(case.id)
        mine = outcome.obs.get("probe") if outcome is not None and outcome.status == "ok" else None
        right = ((goldens.get(case.id, {}).get(MISTAKES) or {}).get("correct") or {}).get("probe")
        if mine is not None and right is not None:
            yield mine, right
