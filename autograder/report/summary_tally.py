"""The class's numbers (summary.json's data) counted one report at a time, so a class of any size is summed
as its rows stream out of the store (batch/outputs.py) and none of its reports is held.

    tally = SummaryTally()
    for report in reports:          # any iterable: each is read once, in the class's order, and dropped
        tally.add(report, late=...)
    summary = tally.summary(intake=..., roster=...)

What it keeps grows only with what the summary itself lists: each score (a float a student: the median and
the histogram need them all), who made each named mistake and who had trouble (listed in the summary), and,
for a class graded with [variants], each graded variant with its samples (forensics compares every pair).
Every number is the one build_summary over a list of reports gives (the same sums in the same order):
summary.py's SCHEMA says what each field means.
"""
from __future__ import annotations

import statistics
from collections import Counter
from itertools import chain
from operator import attrgetter
from typing import Iterable, NamedTuple, Sequence

from autograder.diagnosis.catalogue import RETEACH
from autograder.report.model import Report
from autograder.report.trouble import KINDS, troubles
from autograder.tasks import TASK_IDS, VARIANT_OPS
from autograder.variants.forensics import flags
from autograder.variants.model import Variant

SCHEMA = 5  # its history: summary.py
BINS = 10
WITH = ("timeout", "error", "missing")  # summary.json's submissions_with


class _Sampled(NamedTuple):
    """What forensics reads of a report graded with a variant."""
    submission: str
    variant: Variant | None
    samples: tuple
    error: str | None


class _Task:
    """One task's column so far: its first title, the largest max score, how many have it, passed it, its sum."""
    __slots__ = ("title", "max_score", "count", "passed", "total")

    def __init__(self, title: str, max_score: float):
        self.title, self.max_score, self.count, self.passed, self.total = title, max_score, 0, 0, 0


class SummaryTally:
    def __init__(self):
        self.scores: list[float] = []
        self.max_score: float | None = None
        self.graded = self.late = 0
        self.with_status = dict.fromkeys(WITH, 0)
        self.tasks: dict[str, _Task] = {}
        self.named: dict[tuple[str, str], list[str]] = {}
        self.sandbox: Counter = Counter()
        self.notes: set[str] = set()
        self.who: dict[str, list[dict]] = {kind: [] for kind in KINDS}
        self.sampled: list[_Sampled] = []
        self.variants = False

    def add(self, r: Report, *, late: bool | None = None) -> None:
        self.scores.append(r.score)
        if self.max_score is None or r.max_score > self.max_score:  # max(): the first of the largest
            self.max_score = r.max_score
        self.graded += r.error is None
        self.late += bool(late)
        seen = set(chain.from_iterable(map(_STATUS, t.cases) for t in r.tasks))
        for status in WITH:
            self.with_status[status] += status in seen
        for t in r.tasks:
            task = self.tasks.get(t.id)
            if task is None:
                task = self.tasks[t.id] = _Task(t.title, t.max_score)
            elif t.max_score > task.max_score:
                task.max_score = t.max_score
            task.count += 1
            task.passed += bool(t.cases) and t.status == "passed"
            task.total += t.score
            for d in t.diagnosis:
                self.named.setdefault((t.id, d.id), []).append(r.submission)
        self.sandbox[r.sandbox] += 1
        self.notes.update(r.sandbox_notes)
        for trouble in troubles(r):
            self.who[trouble.kind].append({"submission": r.submission, "reason": trouble.reason})
        if r.variant is not None:
            self.variants = True
            self.sampled.append(_Sampled(r.submission, r.variant, r.samples, r.error))

    def summary(self, *, late: int | None = None, intake: Sequence[str] = (), roster=None) -> dict:
        """late: how many were handed in late, as the summary says it (None: not known; add() counts them)."""
        scores, n = self.scores, len(self.scores)
        max_score = 0.0 if self.max_score is None else self.max_score
        summary = {
            "schema": SCHEMA,
            "submissions": n,
            "graded": self.graded,
            "ungradable": n - self.graded,
            "late": late,
            "max_score": max_score,
            "mean": _round(statistics.fmean(scores)) if scores else None,
            "median": _round(statistics.median(scores)) if scores else None,
            "min": min(scores, default=None),
            "max": max(scores, default=None),
            "submissions_with": dict(self.with_status),
            "tasks": [self._task(task_id, n) for task_id in self.task_ids()],
            "histogram": histogram(scores, max_score),
            "intake": list(intake),
            "diagnoses": self._diagnoses(),
            "sandbox": dict(sorted(self.sandbox.items())),
            "sandbox_notes": sorted(self.notes),
            "who": {kind: sorted(rows, key=lambda row: row["submission"]) for kind, rows in self.who.items()},
        }
        if self.variants:  # a class graded with [variants]
            summary["forensics"] = forensics(self.sampled, roster.absent_variants if roster is not None else ())
        if roster is not None:
            summary["roster"] = roster.summary()
        return summary

    def task_ids(self) -> list[str]:
        """The tasks any report graded, in the kit's task order (csv_report.task_columns)."""
        seen = set(self.tasks)
        return [t for t in TASK_IDS if t in seen] + sorted(seen - set(TASK_IDS))

    def _task(self, task_id: str, n: int) -> dict:
        task = self.tasks[task_id]
        # a variant's extra operation: over the students who have it; every other task: over the class
        of = task.count if task_id in VARIANT_OPS else n
        stats = {"id": task_id, "title": task.title, "max_score": task.max_score, "passed": task.passed,
                 "pass_rate": _round(task.passed / of), "mean_score": _round(task.total / of)}
        if of != n:
            stats["of"] = of
        return stats

    def _diagnoses(self) -> list[dict]:
        rows = [{"task": task, "id": mistake, "count": len(who), "submissions": sorted(who),
                 "says": _says(task, len(who), RETEACH.get(mistake, mistake))}
                for (task, mistake), who in self.named.items()]
        return sorted(rows, key=lambda row: (-row["count"], row["task"], row["id"]))


def build_summary(reports: Iterable[Report], *, late: int | None = None, intake: Sequence[str] = (),
                  roster=None) -> dict:
    """roster: the class list (batch/class_list.py): its missing and unrostered students, named; the absent
    students' variants are compared in forensics too."""
    tally = SummaryTally()
    for report in reports:
        tally.add(report)
    return tally.summary(late=late, intake=intake, roster=roster)


def forensics(reports: Sequence, absent=()) -> dict:
    """Which submissions compute another student's variant (an absent rostered student's too: `absent`, their
    variants), instead of their own or beside it, with the evidence. reports: what of each report forensics
    reads (submission, variant, samples, error)."""
    found = flags(reports, [*_class_variants(reports), *absent] if absent else None)
    return {"checked": sum(r.variant is not None and r.error is None for r in reports),
            "flags": [{"student": f.student, "own": f.own, "sources": list(f.sources),
                       "source_variant": f.source_variant, "evidence": f.evidence, "finding": f.finding,
                       "says": f.says()} for f in found]}


def _class_variants(reports: Sequence) -> list[Variant]:
    """The graded reports' variants, each with its student (as forensics.flags takes them by default)."""
    return [r.variant if r.variant.student else Variant(r.submission, r.variant.op, r.variant.constant)
            for r in reports if r.variant is not None and r.variant.op]


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


def _round(x: float) -> float:
    return round(x, 4)
