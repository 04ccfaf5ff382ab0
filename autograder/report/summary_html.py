"""The class summary as a page (summary.html): how the class did, at a glance.

The class's numbers and score histogram, each task's pass rate as a bar, what to reteach (the
classic mistakes named, each with links to the feedback pages of the students who made it),
what the intake said, and every student's score linked to their feedback page. It reads the
summary (summary.json's data) and one link per student; it sits in the grade output folder,
beside feedback/ and score_histogram.png, which it links relatively. Autoescape on: student
ids and error messages are text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from autograder.report.jinja_env import template
from autograder.report.numbers import show
from autograder.report.roster_section import roster_view
from autograder.report.summary import (INTAKE_INTRO, PASS_RATE, RETEACH_INTRO, SANDBOX_INTRO, WHO_INTRO, forensics_intro,
                                       number_rows, out_of, who_rows)

TEMPLATE = "summary.html.j2"


@dataclass(frozen=True)
class Student:
    """One row of the class, as the page lists and links it."""
    student: str            # the id in the gradebook
    submission: str         # the report's name for it (what the summary's diagnoses list)
    feedback: str           # the feedback page, relative to the output folder: feedback/<name>.html
    score: float
    max_score: float
    late: bool | None = None
    error: str | None = None


def render_summary_html(summary: dict, students: Sequence[Student], *,
                        histogram_file: str | None = "score_histogram.png") -> str:
    return "".join(summary_pieces(summary, students, bool(students), histogram_file=histogram_file))


def summary_pieces(summary: dict, students: Iterable[Student], any_student: bool, *, person=None,
                   histogram_file: str | None) -> Iterator[str]:
    """The page a piece at a time, its students walked once as the template reaches their table (a class's, as they
    come from the store). any_student: is there one (said before the walk); person(submission) -> {name, href}
    of a student the summary names (by default found among `students`, which are then walked twice)."""
    return template(TEMPLATE).generate(page=summary_view(summary, students, histogram_file=histogram_file,
                                                         person=person, any_student=any_student))


def summary_view(summary: dict, students: Iterable[Student], *, histogram_file: str | None, person=None,
                 any_student: bool | None = None) -> dict:
    if person is None:
        by_submission = {s.submission: s for s in students}

        def person(submission: str) -> dict:
            s = by_submission.get(submission)
            return {"name": s.student if s else submission, "href": s.feedback if s else None}

    return {
        "numbers": [(what, str(value)) for what, value in number_rows(summary)],
        "pass_rate_note": PASS_RATE,
        "tasks": [{"id": t["id"], "title": t["title"], "percent": round(100 * t["pass_rate"]),
                   "passed": t["passed"], "of": t.get("of", summary["submissions"]),
                   "mean": out_of(t["mean_score"], t["max_score"])} for t in summary["tasks"]],
        "reteach_intro": RETEACH_INTRO,
        # who, made as the template reaches them (a mistake most of a class made names most of it)
        "reteach": [{"says": row["says"], "who": map(person, row["submissions"])} for row in summary.get("diagnoses", [])],
        "who_intro": WHO_INTRO,
        "who": [{"title": title, "rows": ({**person(row["submission"]), "reason": row["reason"]}
                                          for row in summary["who"][kind])}
                for kind, title in who_rows(summary)],
        "intake_intro": INTAKE_INTRO,
        "intake": list(summary.get("intake", [])),
        "roster": roster_view(summary["roster"]) if "roster" in summary else None,
        "forensics_intro": forensics_intro(summary) if "forensics" in summary else None,
        "forensics": [{"says": f["says"], "evidence": f["evidence"]} for f in summary.get("forensics", {}).get("flags", [])],
        "sandbox_intro": SANDBOX_INTRO,
        "sandbox_notes": list(summary.get("sandbox_notes", [])),
        "histogram": histogram_file if summary["submissions"] else None,
        "students": _Rows(students, bool(students) if any_student is None else any_student),
    }


class _Rows:
    """The students' table as the template walks it: each row made as it is reached (a class's are never all held)."""

    def __init__(self, students: Iterable[Student], any_student: bool):
        self.students, self.any = students, any_student

    def __bool__(self) -> bool:
        return self.any

    def __iter__(self) -> Iterator[dict]:
        for s in self.students:
            yield {"name": s.student, "href": s.feedback, "score": show(s.score), "max": show(s.max_score),
                   "percent": round(100 * s.score / s.max_score) if s.max_score else 0,
                   "late": bool(s.late), "error": s.error or ""}
