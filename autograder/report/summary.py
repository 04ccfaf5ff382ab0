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

import statistics
from collections import Counter
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Sequence

from autograder.diagnosis.catalogue import RETEACH
from autograder.files import write_bytes_atomic
from autograder.report.csv_report import task_columns
from autograder.report.histogram import histogram_png
from autograder.report.inert import inert
from autograder.report.model import Report
from autograder.report.numbers import show
from autograder.report.roster_section import roster_lines
from autograder.report.trouble import KINDS, who
from autograder.tasks import VARIANT_OPS
from autograder.variants.forensics import flags
from autograder.variants.model import Variant

SCHEMA = 5
BINS = 10
_WITH = {"timeout": "with a case that timed out", "error": "with a case that raised an error",
         "missing": "with a task not written yet"}


def build_summary(reports: Sequence[Report], *, late: int | None = None, intake: Sequence[str] = (),
                  roster=None) -> dict:
    """roster: the class list (batch/class_list.py): its missing and unrostered students, named; the absent
    students' variants are compared in forensics too."""
    scores = [r.score for r in reports]
    max_score = max((r.max_score for r in reports), default=0.0)
    summary = {
        "schema": SCHEMA,
        "submissions": len(reports),
        "graded": sum(r.error is None for r in reports),
        "ungradable": sum(r.error is not None for r in reports),
        "late": late,
        "max_score": max_score,
        "mean": _round(statistics.fmean(scores)) if scores else None,
        "median": _round(statistics.median(scores)) if scores else None,
        "min": min(scores, default=None),
        "max": max(scores, default=None),
        "submissions_with": _submissions_with(reports, ("timeout", "error", "missing")),
        "tasks": [_task_stats(reports, task) for task in task_columns(reports)],
        "histogram": histogram(scores, max_score),
        "intake": list(intake),
        "diagnoses": diagnoses(reports),
        "sandbox": dict(sorted(Counter(r.sandbox for r in reports).items())),
        "sandbox_notes": sorted({n for r in reports for n in r.sandbox_notes}),
        "who": who(reports),
    }
    if any(r.variant is not None for r in reports):  # a class graded with [variants]
        summary["forensics"] = forensics(reports, roster.absent_variants if roster is not None else ())
    if roster is not None:
        summary["roster"] = roster.summary()
    return summary


def forensics(reports: Sequence[Report], absent=()) -> dict:
    """Which submissions compute another student's variant (an absent rostered student's too: `absent`, their
    variants), instead of their own or beside it, with the evidence."""
    found = flags(reports, [*_class_variants(reports), *absent] if absent else None)
    return {"checked": sum(r.variant is not None and r.error is None for r in reports),
            "flags": [{"student": f.student, "own": f.own, "sources": list(f.sources),
                       "source_variant": f.source_variant, "evidence": f.evidence, "finding": f.finding,
                       "says": f.says()} for f in found]}


def _class_variants(reports: Sequence[Report]) -> list[Variant]:
    """The graded reports' variants, each with its student (as forensics.flags takes them by default)."""
    return [r.variant if r.variant.student else Variant(r.submission, r.variant.op, r.variant.constant)
            for r in reports if r.variant is not None and r.variant.op]


def diagnoses(reports: Sequence[Report]) -> list[dict]:
    """Each (task, mistake) named in the class, with who made it: the most frequent first."""
    found: dict[tuple[str, str], list[str]] = {}
    for r in reports:
        for t in r.tasks:
            for d in t.diagnosis:
                found.setdefault((t.id, d.id), []).append(r.submission)
    rows = [{"task": task, "id": mistake, "count": len(who), "submissions": sorted(who),
             "says": _says(task, len(who), RETEACH.get(mistake, mistake))}
            for (task, mistake), who in found.items()]
    return sorted(rows, key=lambda row: (-row["count"], row["task"], row["id"]))


def _task_stats(reports: Sequence[Report], task_id: str) -> dict:
    results = [t for r in reports for t in r.tasks if t.id == task_id]
    passed = sum(bool(t.cases) and t.status == "passed" for t in results)
    # a variant's extra operation: over the students who have it; every other task: over the class
    of = len(results) if task_id in VARIANT_OPS else len(reports)
    stats = {
        "id": task_id,
        "title": results[0].title,
        "max_score": max(t.max_score for t in results),
        "passed": passed,
        "pass_rate": _round(passed / of),
        "mean_score": _round(sum(t.score for t in results) / of),
    }
    if of != len(reports):
        stats["of"] = of
    return stats


def _submissions_with(reports: Sequence[Report], statuses: Sequence[str]) -> dict[str, int]:
    """status -> how many reports have a case with it (each report's statuses gathered once, in C)."""
    seen = [set(chain.from_iterable(map(_STATUS, t.cases) for t in r.tasks)) for r in reports]
    return {s: sum(s in statuses_of for statuses_of in seen) for s in statuses}


_STATUS = attrgetter("status")


def _says(task: str, n: int, phrase: str) -> str:
    """'mul: 9 students overwrite grads ...', 'mul: 1 student overwrites grads ...'."""
    if n == 1:
        words = phrase.split(" ")
        i = 1 if words[0] == "never" else 0
        words[i] += "es" if words[i].endswith(("s", "sh", "ch", "x")) else "s"
        phrase = " ".join(words)
    return f"{task}: {n} student{'' if n == 1 else 's'} {phrase}"


def histogram(scores: Sequence[float], max_score: float, bins: int = BINS) -> dict:
    """Counts in `bins` equal bins over [0, max_score]; the last bin includes max_score."""
    top = max([max_score, *scores]) or 1.0
    edges = [_round(top * i / bins) for i in range(bins + 1)]
    counts = [0] * bins
    for s in scores:
        counts[min(bins - 1, max(0, int(bins * s / top)))] += 1
    return {"edges": edges, "counts": counts}


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


def _round(x: float) -> float:
    return round(x, 4)


def _fmt(x) -> str:
    return "–" if x is None else show(x)


def out_of(x, m) -> str:
    return "–" if x is None else f"{_fmt(x)} / {_fmt(m)}"
