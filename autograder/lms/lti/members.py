"""Which of the course's members (NRPS) each graded student is: never by name.

The LTI user id (`user_id`, the launch's `sub`) is the platform's opaque id, not the id in the LMS's
download names, so a student is found by the field PLATFORM.toml names: a member's
`lis_person_sourcedid` (the SIS id), `email`, `user_id`; `message:CLAIM`, a claim of the member's
message section, which the platform gives when asked with a resource link id (Canvas:
`message:https://www.instructure.com/canvas_user_id`, the Canvas user id of the download's names); or
`custom:NAME`, a custom launch parameter in that section. The kit's side is the LMS id in the
download's names (`kit = "lms_id"`) or the kit's id as is (`kit = "student"`), looked up in the
optional roster when the two differ: a CSV whose header is followed by key,value rows, Moodle's
grading worksheet itself (Participant N -> its "Email address"), or Canvas's gradebook export (its
"ID", the Canvas user id -> its "SIS User ID", a member's lis_person_sourcedid).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from autograder.lms.graded import Graded, LmsError
from autograder.lms.lti.config import Platform
from autograder.lms.moodle import IDENTIFIER, PARTICIPANT
from autograder.lms.table import read_table

CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"
INACTIVE = ("Inactive", "Deleted")
LMS_SOURCES = ("canvas", "moodle")   # downloads whose names carry the LMS's id of the student


@dataclass
class Matched:
    users: dict[str, str] = field(default_factory=dict)        # kit student -> LTI user id
    unmatched: list[tuple[Graded, str]] = field(default_factory=list)


def member_value(member: dict, field_name: str) -> str | None:
    """The member's value of the field PLATFORM.toml matches by, as text (None: it has none)."""
    kind, _, name = field_name.partition(":")
    if kind in ("custom", "message") and name:
        messages = member.get("message") or []
        for message in [messages] if isinstance(messages, dict) else messages:
            claims = (message.get(CUSTOM_CLAIM) or {}) if kind == "custom" else message
            if claims.get(name) not in (None, ""):
                return str(claims[name]).strip()
        return None
    value = member.get(field_name)
    return str(value).strip() if value not in (None, "") else None


def kit_key(g: Graded, platform: Platform) -> str | None:
    """The kit's side: the student's id as is, or the LMS id its download's names gave it."""
    if platform.kit == "student":
        return g.student
    lms_id = g.lms_id(g.source) if g.source in LMS_SOURCES else None
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
        key = kit_key(g, platform)
        value = roster.get(key) if roster is not None and key is not None else key
        users = index.get(value, []) if value is not None else []
        if key is None:
            result.unmatched.append((g, "no LMS id in its name (not from a Canvas or Moodle download): "
                                        "match it with kit = \"student\" and a roster"))
        elif value is None:
            result.unmatched.append((g, f"{key} is not in the roster {platform.roster}"))
        elif not users:
            result.unmatched.append((g, f"no active member of the course has {platform.member} {value}"))
        elif len(users) > 1:
            result.unmatched.append((g, f"{len(users)} members have {platform.member} {value}: not guessed"))
        else:
            result.users[g.student] = users[0]
    by_user: dict[str, list[str]] = {}
    for student, user in result.users.items():
        by_user.setdefault(user, []).append(student)
    for students in (s for s in by_user.values() if len(s) > 1):
        for g in (g for g in graded if g.student in students):
            del result.users[g.student]
            result.unmatched.append((g, f"{len(students)} graded submissions are the same member's "
                                        f"({', '.join(students)}): not guessed, grade one of them"))
    if graded and not result.users and not any(len(s) > 1 for s in by_user.values()):
        raise LmsError(f"none of the {len(graded)} graded students is a member of the course by "
                       f"{platform.member} (the wrong course, or [students] in {platform.path} needs another field?)")
    return result


def read_roster(path: Path) -> dict[str, str]:
    """key -> value: the rows after a header, Moodle's worksheet or Canvas's gradebook export (see above)."""
    table = read_table(path, "a roster (a header, then key,value rows) or Moodle's grading worksheet")
    ident, email = table.column(IDENTIFIER), table.column("Email address")
    canvas_id, sis_id = table.column("ID"), table.column("SIS User ID")
    if ident is not None and email is not None:
        rows = [(r[ident].strip()[len(PARTICIPANT):], r[email]) for r in table.rows[1:]
                if r[ident].strip().startswith(PARTICIPANT)]
    elif canvas_id is not None and sis_id is not None:   # Canvas's gradebook export: user id -> SIS id
        rows = [(r[canvas_id], r[sis_id]) for r in table.rows[1:]]
    elif len(table.header) >= 2:
        rows = [(r[0], r[1]) for r in table.rows[1:]]
    else:
        rows = []
    pairs = {key.strip(): value.strip() for key, value in rows if key.strip() and value.strip()}
    if not pairs:
        raise LmsError(f"{path}: no key,value rows after its header: not a roster the kit can use")
    return pairs
