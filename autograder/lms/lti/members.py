"""Which of the course's members (NRPS) each graded student is: never by name.

The LTI user id (`user_id`, the launch's `sub`) is the platform's opaque id, not the id in the LMS's
download names, so a student is found by the field PLATFORM.toml names: a member's
`lis_person_sourcedid` (the SIS id), `email`, `user_id`, or `custom:NAME` (a custom launch parameter
the platform reports per member when asked with the resource link, e.g. Canvas's
canvas_user_id=$Canvas.user.id). The kit's side is the LMS id in the download's names, or the kit's
id as is, through the optional roster CSV (student,value) when the two differ.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from autograder.files import UnreadableText, read_utf8
from autograder.lms.graded import Graded, LmsError
from autograder.lms.lti.config import Platform

CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"
INACTIVE = ("Inactive", "Deleted")
ROSTER_BYTES = 16 * 2**20


@dataclass
class Matched:
    users: dict[str, str] = field(default_factory=dict)        # kit student -> LTI user id
    unmatched: list[tuple[Graded, str]] = field(default_factory=list)


def member_value(member: dict, field_name: str) -> str | None:
    """The member's value of the field PLATFORM.toml matches by, as text (None: it has none)."""
    if field_name.startswith("custom:"):
        messages = member.get("message") or []
        messages = [messages] if isinstance(messages, dict) else messages
        for message in messages:
            custom = message.get(CUSTOM_CLAIM) or {}
            if field_name[len("custom:"):] in custom:
                return str(custom[field_name[len("custom:"):]]).strip()
        return None
    value = member.get(field_name)
    return str(value).strip() if value not in (None, "") else None


def kit_value(g: Graded, platform: Platform, roster: dict[str, str] | None) -> str | None:
    if roster is not None:
        return roster.get(g.student)
    if platform.kit == "student":
        return g.student
    lms_id = g.lms_id(g.source)
    return str(lms_id) if lms_id is not None else None


def match(graded: list[Graded], members: list[dict], platform: Platform) -> Matched:
    roster = read_roster(platform.roster) if platform.roster else None
    index: dict[str, list[str]] = {}
    for member in members:
        value = member_value(member, platform.member)
        if value is not None and member.get("user_id") and member.get("status", "Active") not in INACTIVE:
            index.setdefault(value, []).append(str(member["user_id"]))
    result = Matched()
    for g in graded:
        value = kit_value(g, platform, roster)
        users = index.get(value, []) if value is not None else []
        if value is None:
            where = "the roster" if roster is not None else "its id (no LMS id in the download's names)"
            result.unmatched.append((g, f"nothing in {where} to find it by"))
        elif not users:
            result.unmatched.append((g, f"no active member of the course has {platform.member} {value}"))
        elif len(users) > 1:
            result.unmatched.append((g, f"{len(users)} members have {platform.member} {value}: not guessed"))
        else:
            result.users[g.student] = users[0]
    if graded and not result.users:
        raise LmsError(f"none of the {len(graded)} graded students is a member of the course by "
                       f"{platform.member} (the wrong course, or [students] in {platform.path} needs another field?)")
    return result


def read_roster(path: Path) -> dict[str, str]:
    """student,value pairs (a header row "student,..." is skipped)."""
    try:
        rows = list(csv.reader(read_utf8(path, max_bytes=ROSTER_BYTES).lstrip("\ufeff").splitlines()))
    except (UnreadableText, OSError) as err:
        raise LmsError(f"{path}: can't read the roster ({err})") from None
    pairs = [r for r in rows if len(r) >= 2 and r[0].strip() and r[0].strip().lower() != "student"]
    if not pairs:
        raise LmsError(f"{path}: no student,value rows in the roster")
    return {r[0].strip(): r[1].strip() for r in pairs}
