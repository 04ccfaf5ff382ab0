"""How the class did: numbers (summary.json), a page (summary.md), a histogram (PNG).

Scores count every submission, an ungradable one as 0, as in the gradebook.
A task's pass rate is the share of submissions that passed every one of its
cases that count there (an end-to-end case failing through a task that fails its
own cases is charged to that task: Case.needs). "with a timeout" (error, missing) counts submissions having at least
one case with that status.

SCHEMA history:
  1: submissions, graded, ungradable, late, max_score, mean, median, min, max,
     submissions_with{timeout, error, missing}, tasks[id, title, max_score, passed,
     pass_rate, mean_score], histogram{edges, counts}
  2: intake: the lines the intake said about the download (files that fit no layout and
     were not graded, junk, re-uploads kept the newer), so none is lost from view
  3: diagnoses: the classic mistakes named across the class, most frequent first:
     [{task, id, count, submissions, says}] (what to reteach)
  4: sandbox: how many submissions each sandbox level graded ({"bubblewrap": 11, "none": 1}), and
     sandbox_notes: what those levels say they can't hold, each once (for the instructor: a
     student's feedback page leaves them out)
  5: who: the submissions that could not be graded, did not import, timed out or raised an error, kind by
     kind ({"ungradable": [{submission, reason}], "import": [...], "timeout": [...], "error": [...]}:
     report/trouble.py), so the numbers above them come with names
  (5, unchanged for a class without [variants]) tasks[of]: how many submissions have the task, where not all
     (a variant's extra operation; pass_rate and mean_score are over those); forensics: {checked, flags: [{student, own, sources,
     source_variant, evidence, says}]}: the submissions whose code solves another student's variant and
     not their own (autograder/variants/forensics.py); present only when the class was graded with variants
  (5, unchanged without a roster) roster: {roster, students, submitted, missing: [ids], missing_variants: {id: label},
     unrostered: [{submission, id}], unrostered_graded}: the class list's view (batch/class_list.py)
"""
from __future__ import annotations

from pathlib import Path

from autograder.files import write_bytes_atomic
from autograder.report.histogram import histogram_png
from autograder.report.inert import inert
from autograder.report.numbers import show
from autograder.report.roster_section import roster_lines
from autograder.report.summary_tally import BINS, SCHEMA, SummaryTally, build_summary, forensics, histogram
from autograder.report.trouble import KINDS

__all__ = ["BINS", "SCHEMA", "SummaryTally", "build_summary", "forensics", "histogram", "number_rows", "render_markdown",
           "write_histogram"]
_WITH = {"timeout": "with a case that timed out", "error": "with a case that raised an error",
         "missing": "with a task not written yet"}


def number_rows(summary: dict) -> list[tuple[str, object]]:
    """The class's numbers as (what, value) rows: what summary.md and summary.html show first."""
    m = summary["max_score"]
    rows = [
        ("submissions", summary["submissions"]),
        ("graded", summary["graded"]),
        ("could not be graded", summary["ungradable"]),
        ("mean score", out_of(summary["mean"], m)),
        ("median score", out_of(summary["median"], m)),
        # two rows, each out of the maximum: "70 / 105" under "lowest / highest" read as one score out of 105
        ("lowest score", out_of(summary["min"], m)),
        ("highest score", out_of(summary["max"], m)),
        *((_WITH[s], n) for s, n in summary["submissions_with"].items()),
    ]
    if summary["late"] is not None:
        rows.append(("handed in late", summary["late"]))
    if summary.get("sandbox"):
        rows.append(("graded in the sandbox", sandbox_levels(summary)))
    return rows


def who_rows(summary: dict) -> list[tuple[str, str]]:
    """(kind, "timed out (2)") for each kind of trouble some submission had, in KINDS' order."""
    return [(kind, f"{title} ({len(summary['who'][kind])})") for kind, title in KINDS.items()
            if summary.get("who", {}).get(kind)]


def sandbox_levels(summary: dict) -> str:
    """'bubblewrap (11), none (1)': the levels the class was graded in, and how many each."""
    return ", ".join(f"{level} ({n})" for level, n in summary["sandbox"].items())


PASS_RATE = "Pass rate: the share of submissions that passed every case of the task that counts there."
RETEACH_INTRO = "The classic mistakes the autograder named (each fits every observation of that task):"
INTAKE_INTRO = "Files in the download that were not graded as they are (see each line):"
WHO_INTRO = "Who to look into (each line says why; the gradebook's error column says it too):"
SANDBOX_INTRO = "What the sandbox this class was graded in can't hold (students' pages leave this out):"


def forensics_intro(summary: dict) -> str:
    """What the forensics section says before its flags (or instead of them)."""
    f = summary["forensics"]
    if not f["flags"]:
        return (f"None of the {f['checked']} graded submission(s) computes another student's variant, instead of "
                "its own or beside it.")
    flagged = len({flag["student"] for flag in f["flags"]})
    return (f"{flagged} of the {f['checked']} graded submission(s) compute another student's variant, instead of "
            "their own or beside it (another operation with that student's exact constant): a correct solution "
            "of a student's own variant never does. The numbers:")


def render_markdown(summary: dict, *, histogram_file: str | None = "score_histogram.png") -> str:
    rows = number_rows(summary)
    lines = ["# Class summary", "", "| | |", "|---|---:|", *(f"| {k} | {v} |" for k, v in rows), ""]
    lines += ["## Tasks", "", PASS_RATE, "",
              "| task | what it checks | pass rate | mean score |", "|---|---|---:|---:|"]
    for t in summary["tasks"]:
        title = t["title"].replace("|", "\\|")
        lines.append(f"| {t['id']} | {title} | {t['pass_rate']:.0%} | {out_of(t['mean_score'], t['max_score'])} |")
    if any(summary.get("who", {}).values()):
        lines += ["", "## Who to look into", "", WHO_INTRO]
        for kind, title in who_rows(summary):
            lines += ["", f"{title}:", ""]
            lines += [f"- {row['submission']}: {row['reason']}" for row in summary["who"][kind]]
    if summary.get("diagnoses"):
        lines += ["", "## What to reteach", "", RETEACH_INTRO, ""]
        lines += [f"- {row['says']} ({', '.join(row['submissions'])})" for row in summary["diagnoses"]]
    if summary.get("intake"):
        lines += ["", "## What the intake said", "", INTAKE_INTRO, ""]
        lines += [f"- {line}" for line in summary["intake"]]
    if "roster" in summary:
        lines += ["", "## Roster", "", *roster_lines(summary["roster"])]
    if "forensics" in summary:
        lines += ["", "## Forensics: whose variant each submission solves", "", forensics_intro(summary), ""]
        lines += [f"- {flag['says']}: {flag['evidence']}" for flag in summary["forensics"]["flags"]]
    if summary.get("sandbox_notes"):
        lines += ["", "## The sandbox", "", SANDBOX_INTRO, ""]
        lines += [f"- {line}" for line in summary["sandbox_notes"]]
    if histogram_file:
        lines += ["", f"![score histogram]({histogram_file})"]
    return inert("\n".join(lines)) + "\n"  # intake lines name students' files: nothing in them acts


def write_histogram(summary: dict, path: Path) -> None:
    """Draw summary["histogram"] as a PNG file, written atomically."""
    write_bytes_atomic(path, histogram_png(summary))


def _fmt(x) -> str:
    return "–" if x is None else show(x)


def out_of(x, m) -> str:
    return "–" if x is None else f"{_fmt(x)} / {_fmt(m)}"
