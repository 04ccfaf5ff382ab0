"""The AGS score of each graded student (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service):
scoreGiven on the line item's scoreMaximum (a late penalty taken off as `lms canvas` does), the short
comment, Completed/FullyGraded, and a timestamp: when the kit wrote the student's report, and always
later than the last score the kit sent that student, so the platform keeps the newest and refuses (409)
an older grading pushed over a newer one."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from pylti1p3.grade import Grade

from autograder.batch.exports import GRADEBOOK, REPORTS
from autograder.lms.comment import short_comment
from autograder.lms.graded import Graded
from autograder.lms.grades import Scale

STEP = timedelta(milliseconds=1)


def score(out: Path, g: Graded, user: str, score_maximum: float, *, late_penalty: float) -> dict:
    """The score without its timestamp (the fields a re-push compares)."""
    given = Scale(out_of=score_maximum, late_penalty=late_penalty).value(g)
    return {"user": user, "scoreGiven": round(given, 2), "scoreMaximum": score_maximum,
            "comment": short_comment(out, g), "activityProgress": "Completed", "gradingProgress": "FullyGraded"}


def timestamp(out: Path, g: Graded, last: dict | None) -> str:
    """When the kit graded g (its report's time), later than the last one sent to that student."""
    report = Path(out) / REPORTS / f"{g.student}.json"
    source = report if report.is_file() else Path(out) / GRADEBOOK
    when = datetime.fromtimestamp(source.stat().st_mtime, timezone.utc)
    if last and last.get("timestamp"):
        before = datetime.fromisoformat(last["timestamp"])
        when = max(when, before + STEP)
    return when.isoformat(timespec="milliseconds")


def grade(score: dict, timestamp: str) -> Grade:
    """The score as pylti1p3's Grade (its JSON is the AGS score body)."""
    return (Grade().set_user_id(score["user"]).set_score_given(score["scoreGiven"])
            .set_score_maximum(score["scoreMaximum"]).set_comment(score["comment"]).set_timestamp(timestamp)
            .set_activity_progress(score["activityProgress"]).set_grading_progress(score["gradingProgress"]))
