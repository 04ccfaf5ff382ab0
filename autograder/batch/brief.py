"""A report's brief: what the class's files need of it, a few hundred bytes instead of ~115 KB.

The gradebook, the summary (json, md, html, histogram) and forensics read of a report its scores, error,
sandbox and its notes about it, import errors, variant and forensic samples, each task's id, title,
scores and diagnoses, and of its cases only: which statuses occur (counted or not), how many of each, and
the first public case of each status with its message (report/trouble.py). A brief keeps exactly that, so
every class file made from briefs is byte for byte the one made from the full reports; the full report is
read back from the store only to write that student's own files (reports/, feedback/).

The store keeps each row's brief beside its report (store.py), so a rerun reads briefs, never reports:
the batch holds a class of briefs, never a class of reports.
"""
from __future__ import annotations

import json
from functools import lru_cache
from dataclasses import dataclass

from autograder.report.model import CaseResult, Diagnosis, Report, TaskResult
from autograder.variants.model import Variant

BRIEF = 2  # the format's version: a brief of another is made again from the report
BRIEF_START = '{"v":%d,' % BRIEF  # how brief_json's text of this format begins


@dataclass(frozen=True)
class BriefTask(TaskResult):
    """A task whose cases are representatives (see brief_cases); count() answers from the real counts."""
    counts: tuple[tuple[str, int], ...] = ()

    def count(self, status: str) -> int:
        return dict(self.counts).get(status, 0)

    @property
    def waived(self) -> int:
        raise AttributeError("a brief does not keep which cases were waived")


def brief_cases(cases) -> tuple[CaseResult, ...]:
    """Per status and counted-ness, its first case; and per status, its first public case with a message:
    in their order, stripped of all but status, counted, visibility and message. So the set of statuses (of
    all cases, of the counted ones) and the first public message of a status are the full list's."""
    return tuple(CaseResult("", status, visibility, message, counted=counted)
                 for status, counted, visibility, message in _kept(cases)[0])


def _kept(cases) -> tuple[list[list], list[list]]:
    """In one pass over the cases: brief_cases's, each as [status, counted, visibility, message], and how many
    cases have each status, [[status, n], ...] by status."""
    keep: dict[int, CaseResult] = {}  # by the case's place: filled in order
    seen: set = set()
    messaged: set = set()
    counts: dict[str, int] = {}
    for i, c in enumerate(cases):
        status = c.status
        counts[status] = counts.get(status, 0) + 1
        if (status, c.counted) not in seen:
            seen.add((status, c.counted))
            keep[i] = c
        if status not in messaged and c.visibility == "public" and c.message:
            messaged.add(status)
            keep[i] = c
    return ([[c.status, c.counted, c.visibility, c.message] for c in keep.values()],
            [[status, n] for status, n in sorted(counts.items())])


def brief_of(report: Report) -> Report:
    """The report as the class's files read it. Made through its stored form (brief_json), so its tasks are the
    ones every student whose task reads the same shares (_task), not copies of this report's: a class's briefs
    hold no object a worker sent back."""
    if _is_brief(report):
        return report
    return brief_from_json(brief_json(report))


def _is_brief(report: Report) -> bool:
    return any(isinstance(t, BriefTask) for t in report.tasks)


def brief_json(report: Report) -> str:
    """The brief of a report (full, or a brief), as the store keeps it: each task as a text of its own, so the
    tasks many students share (every passed task, the same mistake) are read once a class and held once (_task)."""
    b = report
    return json.dumps({
        "v": BRIEF, "submission": b.submission, "score": b.score, "max_score": b.max_score, "error": b.error,
        "sandbox": b.sandbox, "notes": list(b.sandbox_notes), "kit_version": b.kit_version,
        "import_errors": [list(e) for e in b.import_errors],
        "variant": b.variant.to_json() if b.variant is not None else None,
        "samples": [[op, list(out), list(grad)] for op, out, grad in b.samples],
        "tasks": [_task_json(t) for t in b.tasks],
    }, separators=(",", ":"))


def _task_json(t: TaskResult) -> str:
    if isinstance(t, BriefTask):
        cases, counts = [[c.status, c.counted, c.visibility, c.message] for c in t.cases], [list(n) for n in t.counts]
    else:
        cases, counts = _kept(t.cases)
    return json.dumps([t.id, t.title, t.score, t.max_score, cases, [[d.id, d.message] for d in t.diagnosis], counts],
                      separators=(",", ":"))


def is_brief_json(text: str | None) -> bool:
    """Is this a brief of this format (brief_json's text)? Told without parsing it."""
    return bool(text) and text.startswith(BRIEF_START)


def brief_from_json(text: str) -> Report | None:
    """The brief back (None: a brief of another format, to be made again)."""
    d = json.loads(text)
    if d.get("v") != BRIEF:
        return None
    # tuples of lists, not of iterators: a tuple made from an iterator is resized, never taken from the free list
    # of its size, which then fills with a class's freed ones (to 2,000 of each size)
    return Report(d["submission"], d["score"], d["max_score"], tuple([_task(t) for t in d["tasks"]]), d["error"],
                  _shared(d["sandbox"]), _notes(tuple(d["notes"])), _shared(d["kit_version"]),
                  import_errors=tuple([tuple(e) for e in d["import_errors"]]),
                  variant=Variant.from_json(d["variant"]) if d["variant"] else None,
                  samples=tuple([(op, tuple(out), tuple(grad)) for op, out, grad in d["samples"]]))


@lru_cache(maxsize=1 << 10)
def _shared(text: str) -> str:
    """One copy a class of a text most students' briefs read the same (the sandbox, the kit's version)."""
    return text


@lru_cache(maxsize=1 << 10)
def _notes(notes: tuple[str, ...]) -> tuple[str, ...]:
    return notes


@lru_cache(maxsize=1 << 16)
def _task(text: str) -> BriefTask:
    """One task's brief, made once for every student whose task reads the same (the objects are immutable)."""
    i, title, score, top, cases, diags, counts = json.loads(text)
    return BriefTask(i, title, score, top, tuple(CaseResult("", s, vis, msg, counted=counted) for s, counted, vis, msg in cases),
                     tuple(Diagnosis(a, b) for a, b in diags), counts=tuple((s, n) for s, n in counts))
