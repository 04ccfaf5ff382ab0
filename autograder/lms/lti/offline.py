"""`lms push --dry-run` without the platform: what would be sent, from what the kit last knew.

The kit knows what the platform accepted (OUT/lti-sent.json: each score with the member it went to, under
the line item the assignment's tag found). From that alone, with no PLATFORM.toml or no answer from the
platform, a dry run says, per student: new (never sent: which member they are needs the platform's member
list), changed (the score or comment differs from the one sent), or unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from autograder.lms.graded import Graded
from autograder.lms.lti.scores import score
from autograder.lms.lti.sent import Sent, unchanged


@dataclass
class Offline:
    lineitem: str | None
    new: list[Graded] = field(default_factory=list)        # never sent: not mapped without the platform
    changed: list[tuple[Graded, dict, dict]] = field(default_factory=list)   # (student, last sent, now)
    unchanged: list[Graded] = field(default_factory=list)


def dry_run(out: Path, graded: list[Graded], *, tag: str | None, late_penalty: float = 0.0) -> Offline:
    sent = Sent(out)
    lineitem = sent.lineitem_of(tag)
    result = Offline(lineitem)
    for g in graded:
        last = sent.last(lineitem, g.student) if lineitem else None
        if last is None:
            result.new.append(g)
            continue
        now = score(out, g, last["user"], last["scoreMaximum"], late_penalty=late_penalty)
        if unchanged(last, now):
            result.unchanged.append(g)
        else:
            result.changed.append((g, last, now))
    return result
