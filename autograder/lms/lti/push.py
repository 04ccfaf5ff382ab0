"""The push: the course's members read (NRPS), the assignment's line item found by its tag or made (AGS),
and each changed score posted with pylti1p3, recorded in OUT/lti-sent.json as soon as it is accepted.

A refusal of the token, of the service (401, 403), a platform error (5xx) or no answer stops the push
with one line: what was sent stays recorded, what was not is listed, and the next push sends it. A
refusal of one score (409: the platform holds a newer one) costs that score only."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import requests
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService

from autograder.lms.graded import Graded
from autograder.lms.lti.config import Platform
from autograder.lms.lti.members import match
from autograder.lms.lti.scores import grade, score, timestamp
from autograder.lms.lti.sent import Sent
from autograder.lms.lti.service import Refused, call, connector

AGS = "https://purl.imsglobal.org/spec/lti-ags/scope/"
SCOPES = [AGS + "lineitem", AGS + "result.readonly", AGS + "score"]


@dataclass
class Pushed:
    lineitem: str | None = None           # its URL (None: a dry run that would create it)
    created: bool = False
    score_maximum: float = 0.0
    sent: list[Graded] = field(default_factory=list)            # with --dry-run: what would be sent
    bodies: dict[str, dict] = field(default_factory=dict)       # student -> the score sent (or to send)
    unchanged: list[Graded] = field(default_factory=list)
    unmatched: list[tuple[Graded, str]] = field(default_factory=list)
    refused: list[tuple[Graded, str]] = field(default_factory=list)
    stopped: str | None = None            # the line that stopped the push
    not_sent: list[Graded] = field(default_factory=list)        # left when it stopped


def push(out: Path, platform: Platform, graded: list[Graded], *, late_penalty: float = 0.0,
         dry_run: bool = False, session: requests.Session | None = None) -> Pushed:
    """Raises Refused when nothing could be sent (the token, the members or the line items refused)."""
    sent = Sent(out)
    conn = connector(platform, session)
    ags = AssignmentsGradesService(conn, {"scope": SCOPES, "lineitems": platform.lineitems})
    nrps = NamesRolesProvisioningService(conn, {"context_memberships_url": platform.memberships})
    members = call(platform, "the course's members (NRPS)", nrps.get_members, platform.resource_link_id)
    matched = match(graded, members, platform)
    result = Pushed(unmatched=matched.unmatched)
    item = call(platform, "the assignment's line item (AGS)", ags.find_lineitem_by_tag, platform.tag)
    kit_max = max((g.max_score for g in graded), default=0.0)
    if item is None and not dry_run:
        new = (LineItem().set_tag(platform.tag).set_label(platform.label)
               .set_score_maximum(platform.score_maximum or kit_max))
        item = call(platform, "a new line item (AGS)", ags.find_or_create_lineitem, new)
        result.created = True
    result.lineitem = item.get_id() if item else None
    if result.lineitem and not dry_run:
        sent.remember_tag(platform.tag, result.lineitem)
    result.score_maximum = float((item.get_score_maximum() if item else None) or platform.score_maximum or kit_max)
    for g in graded:
        user = matched.users.get(g.student)
        if user is None:
            continue
        body = score(out, g, user, result.score_maximum, late_penalty=late_penalty)
        if result.lineitem and sent.unchanged(result.lineitem, g.student, body):
            result.unchanged.append(g)
            continue
        result.bodies[g.student] = body
        if dry_run:
            result.sent.append(g)
            continue
        if result.stopped:
            result.not_sent.append(g)
            continue
        body["timestamp"] = timestamp(out, g, sent.last(result.lineitem, g.student))
        try:
            call(platform, f"the score of {g.student}", ags.put_grade, grade(body, body["timestamp"]), item)
        except Refused as refusal:
            if refusal.stops_the_push:
                result.stopped = refusal.line
                result.not_sent.append(g)
            else:
                result.refused.append((g, refusal.line))
            continue
        sent.record(result.lineitem, g.student, body)
        result.sent.append(g)
    return result
