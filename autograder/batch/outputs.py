"""Write a batch's files from its rows: the gradebook, each student's report and
feedback page, and the class summary. Every file is written atomically, and all
of them come from the store, so a resumed run writes the same complete set.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from autograder.batch.ids import sanitise, uniquify
from autograder.batch.store import BatchRow
from autograder.files import write_json_atomic, write_text_atomic
from autograder.report.csv_report import render_gradebook
from autograder.report.html_report import render_feedback
from autograder.report.json_report import render_json
from autograder.report.summary import build_summary, render_markdown, write_histogram

GRADEBOOK = "gradebook.csv"
SUMMARY_JSON = "summary.json"
SUMMARY_MD = "summary.md"
HISTOGRAM = "score_histogram.png"
REPORTS = "reports"
FEEDBACK = "feedback"


@dataclass(frozen=True)
class Written:
    gradebook: Path
    reports: Path
    feedback: Path
    summary_json: Path
    summary_md: Path
    histogram: Path
    summary: dict


def write_outputs(out_dir: Path, rows: Sequence[BatchRow]) -> Written:
    out_dir = Path(out_dir)
    written = Written(out_dir / GRADEBOOK, out_dir / REPORTS, out_dir / FEEDBACK, out_dir / SUMMARY_JSON,
                      out_dir / SUMMARY_MD, out_dir / HISTOGRAM,
                      build_summary([r.report for r in rows], late=sum(bool(r.late) for r in rows)))
    for row, name in zip(rows, file_names([r.student for r in rows])):
        write_text_atomic(written.reports / f"{name}.json", render_json(row.report))
        write_text_atomic(written.feedback / f"{name}.html",
                          render_feedback(row.report, student=row.student, late=row.late))
    write_text_atomic(written.gradebook, render_gradebook(rows))
    write_json_atomic(written.summary_json, written.summary)
    write_text_atomic(written.summary_md, render_markdown(written.summary, histogram_file=HISTOGRAM))
    write_histogram(written.summary, written.histogram)
    return written


def file_names(students: Sequence[str]) -> list[str]:
    """Safe, distinct file names; a student id that is one already is used as it is."""
    return uniquify([sanitise(s) for s in students])
