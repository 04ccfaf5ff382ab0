"""What a class's grading writes, listed once: each student's files and the class's files.

An export is a file name (or, per student, a folder and a suffix), how it is rendered,
and the renderers it is made by (kit files: their source keys the digests outputs.py
keeps, so a changed renderer renders its files again). Adding an export, a Canvas
import file say, is one entry in CLASS_EXPORTS; nothing else needs to know.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Protocol

from autograder.batch.store import BatchRow


@dataclass(frozen=True)
class StudentExport:
    folder: str                                  # reports/<student>.json, feedback/<student>.html
    suffix: str
    render: Callable[[BatchRow], bytes]
    keyed_by_student: bool = False               # its content depends on the id and lateness too
    renderers: tuple[str, ...] = ()              # kit files (relative to autograder/) that render it


class ClassRows(Protocol):
    """The class's rows as outputs.py hands them to a class export: walked once per export, each walk one pass over
    the store (batch/class_rows.py), so an export writes a row at a time and holds none."""
    aliases: Mapping[str, str]   # a report's submission -> its row's student, where the two differ

    def name(self, student: str) -> str:
        """The name of the student's own files (feedback/<name>.html)."""

    def __iter__(self) -> Iterator[BatchRow]: ...


@dataclass(frozen=True)
class ClassExport:
    name: str                                    # the file in the output folder
    # (rows, summary) -> its text, in pieces (written as they come); a costly one's: its bytes
    render: Callable[[ClassRows, dict], Iterable[str] | bytes]
    renderers: tuple[str, ...] = ()
    costly: bool = False                         # rendered only when the summary changed (a PNG)
    only_with: str = ""                          # written only when the summary has this key ("forensics")


def json_text(data) -> str:
    """JSON as files.write_json_atomic writes it."""
    return json.dumps(data, sort_keys=True, indent=1) + "\n"


def _report_json(row: BatchRow) -> bytes:
    from autograder.report.json_text import indented_json  # render_json's text, its cases' made once a class
    return indented_json(row.report).encode("utf-8")


def _feedback_html(row: BatchRow) -> bytes:
    from autograder.report.html_report import render_feedback
    return render_feedback(row.report, student=row.student, late=row.late).encode("utf-8")


def _gradebook(rows: ClassRows, summary: dict) -> Iterable[str]:
    from autograder.report.csv_report import gradebook_lines
    return gradebook_lines(rows, [t["id"] for t in summary["tasks"]], "forensics" in summary, summary.get("roster"))


def _summary_json(rows: ClassRows, summary: dict) -> Iterable[str]:
    return [json_text(summary)]


def _summary_md(rows: ClassRows, summary: dict) -> Iterable[str]:
    from autograder.report.summary import render_markdown
    return [render_markdown(summary, histogram_file=HISTOGRAM)]


def _summary_html(rows: ClassRows, summary: dict) -> Iterable[str]:
    from autograder.report.summary_html import Student, summary_pieces
    from autograder.report.trouble import error_line

    def person(submission: str) -> dict:  # the student a summary's line names, linked to their page
        student = rows.aliases.get(submission, submission)
        return {"name": student, "href": f"{FEEDBACK}/{rows.name(student)}.html"}

    students = (Student(r.student, r.report.submission, f"{FEEDBACK}/{rows.name(r.student)}.html", r.report.score,
                        r.report.max_score, r.late, error_line(r.report)) for r in rows)
    return summary_pieces(summary, students, summary["submissions"] > 0, person=person, histogram_file=HISTOGRAM)


def _forensics_csv(rows: ClassRows, summary: dict) -> Iterable[str]:
    from autograder.report.forensics_csv import render_forensics
    return [render_forensics(summary["forensics"])]


def _histogram(rows: ClassRows, summary: dict) -> bytes:
    from autograder.report.histogram import histogram_png
    return histogram_png(summary)


REPORTS, FEEDBACK = "reports", "feedback"
GRADEBOOK, SUMMARY_JSON, SUMMARY_MD, HISTOGRAM = "gradebook.csv", "summary.json", "summary.md", "score_histogram.png"
SUMMARY_HTML = "summary.html"
FORENSICS = "forensics.csv"

STUDENT_EXPORTS: tuple[StudentExport, ...] = (
    StudentExport(REPORTS, ".json", _report_json, renderers=("report/json_report.py", "report/json_text.py", "report/json_indent.py",
                                                          "report/inert.py")),
    StudentExport(FEEDBACK, ".html", _feedback_html, keyed_by_student=True,
                  renderers=("report/html_report.py", "report/grouping.py", "report/graph_svg.py", "report/jinja_env.py",
                             "report/templates")),
)
CLASS_EXPORTS: tuple[ClassExport, ...] = (
    ClassExport(GRADEBOOK, _gradebook, renderers=("report/csv_report.py", "report/trouble.py")),
    ClassExport(SUMMARY_JSON, _summary_json, renderers=("report/summary.py", "report/trouble.py", "diagnosis/catalogue.py")),
    ClassExport(SUMMARY_MD, _summary_md, renderers=("report/summary.py", "report/trouble.py", "diagnosis/catalogue.py",
                                                    "report/roster_section.py")),
    ClassExport(SUMMARY_HTML, _summary_html, renderers=("report/summary_html.py", "report/summary.py", "report/trouble.py",
                                                        "report/roster_section.py",
                                                        "report/jinja_env.py", "report/templates",
                                                        "diagnosis/catalogue.py")),
    ClassExport(HISTOGRAM, _histogram, renderers=("report/summary.py", "report/histogram.py"), costly=True),
    ClassExport(FORENSICS, _forensics_csv, renderers=("report/forensics_csv.py", "variants/forensics.py"),
                only_with="forensics"),
)
# what every export leans on: a change here renders every file again
SHARED_RENDERERS = ("batch/exports.py", "batch/outputs.py", "report/model.py", "report/numbers.py")


def renderers() -> tuple[str, ...]:
    """Every kit file an export is rendered by, each once."""
    named = [*SHARED_RENDERERS, *(r for e in (*STUDENT_EXPORTS, *CLASS_EXPORTS) for r in e.renderers)]
    return tuple(dict.fromkeys(named))
