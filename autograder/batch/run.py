"""Grade a class: every entry gets exactly one row, whatever its submission does.

    result = grade_batch(discovery.entries, Path("out"), rubric=rubric, workers=8)

Submissions are graded in parallel worker processes (pool.py); each finished
one is stored at once in out/gradebook.sqlite (store.py), keyed by its content,
the kit version, the hidden seed and the rubric (keys.py). Running the same
command again grades only what is not stored yet; `regrade=True` redoes all.
The output files are then written from the rows as stored (outputs.py), each
only if it changed since the last run.
"""
from __future__ import annotations

import gc
import os
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Callable, Iterable, Sequence

from autograder.batch.class_rows import StoredRows
from autograder.batch.class_list import (ClassList, Roster, class_list, entries_of, not_on_roster, remembered_roster,
                                         roster_id, still_in, unrostered_entries, unrostered_row)
from autograder.batch.lock import OutputBusy, hold_output
from autograder.batch.entry import Entry
from autograder.batch.executors import LOCAL, Executor
from autograder.batch.in_place import InPlace, suits
from autograder.batch.keys import GradeKey, grade_keys
from autograder.batch.known_contents import content_digests
from autograder.batch.outputs import OutputFiles, Written
from autograder.batch.pool import Job
from autograder.batch import STORE_NAME
from autograder.batch.progress import progress_bar
from autograder.batch.regrade import LastClass, class_order, kept_students
from autograder.batch.regrade_changes import say_changes
from autograder.batch.store import BatchRow, Store
from autograder.batch.unchanged import EarlyFiles, prepare_class_files, prepare_renderers
from autograder.batch.worker import GradeOne, grade_hidden, hidden_courses, prepare_hidden
from autograder.config import Rubric
from autograder.errors import UserError
from autograder.report.model import Report
from autograder.variants.assign import with_variant
from autograder.variants.ids import entry_variant



class BatchInputError(UserError, ValueError):
    """Entries or an output folder that can't be graded into: one line."""


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during grading; what was graded is stored, and the message says how to resume."""


class ClassRows:
    """What a class's rows say about its grading, for a batch and a merge of shards alike."""
    rows: tuple[BatchRow, ...]

    @cached_property  # one walk of the store, reading out only these rows (class_rows.py), however often asked
    def _flagged(self) -> tuple[BatchRow, ...]:
        rows = self.rows
        return rows.flagged() if isinstance(rows, StoredRows) else tuple(r for r in rows if r.ungradable or not r.final)

    @cached_property
    def ungradable(self) -> tuple[BatchRow, ...]:
        return tuple(r for r in self._flagged if r.ungradable)

    @cached_property
    def retryable(self) -> tuple[BatchRow, ...]:
        """Rows whose grading crashed: the next run tries them again."""
        return tuple(r for r in self._flagged if not r.final)


@dataclass(frozen=True)
class BatchResult(ClassRows):
    rows: Sequence[BatchRow]       # one per entry, in the entries' order (read from the store when walked)
    graded: int                    # graded by this run
    reused: int                    # taken from the store
    out_dir: Path
    written: Written
    roster: ClassList | None = None  # what the roster says of the class (unrostered, missing)
    kept: int = 0                  # rows of the folder's last class kept as they were (not in this run)
    changed: int | None = None     # scores a regrade changed (regrade-changes.csv), None: no regrade


def grade_batch(
    entries: Iterable[Entry],
    out_dir: Path,
    *,
    rubric: Rubric,
    workers: int | None = os.cpu_count(),
    regrade: bool = False,
    grade_one: GradeOne = grade_hidden,
    progress: bool = True,
    intake: Sequence[str] = (),
    executor: Executor = LOCAL,
    roster: Roster | None = None,
) -> BatchResult:
    """intake: what discovering the entries said (files not graded, junk): kept in the summary.
    executor: where the submissions are graded (executors.py; the local process pool by default).
    roster: the class list (class_list.py); None: the one the output folder remembers, if any."""
    entries = list(entries)
    out_dir = Path(out_dir)
    check_entries(entries, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with hold_output(out_dir), Store(out_dir / STORE_NAME) as store:
            roster = remembered_roster(store, roster)
            last = LastClass.read(store)
            on = None if roster is None else set(roster.ids)
            kept = kept_students(last, [e.student for e in entries],
                                 None if on is None else lambda s: still_in(last, s, on))
            unrostered = unrostered_entries(entries, roster, rubric)
            to_grade = [e for e in entries if e.student not in unrostered]
            before = store.keep_previous({e.student: last.keys[e.student] for e in to_grade if e.student in last.keys}) \
                if last is not None and regrade else set()
            kept_keys = [(s, last.keys[s]) for s in kept if s in last.keys]
            old = {s for (s, _), row in zip(kept_keys, store.rows_of(kept_keys)) if row is not None}  # those stored
            for e in entries_of(last, [s for s in kept if s not in old]):   # kept, still not on the roster
                unrostered[e.student] = not_on_roster(e.student, roster_id(e.student, e.source), roster)
                entries.append(e)
            order = class_order(last, [e.student for e in entries], [*old, *(s for s in kept if s in unrostered)])
            keys: dict[str, GradeKey] = {}
            files = OutputFiles(out_dir, order, store,
                                full=lambda row: store.get(row.student, keys.get(row.student) or last.keys[row.student]))
            early = EarlyFiles(files)  # the reused rows' files, checked while the workers start
            graded_rows, graded = grade_rows(to_grade, store, rubric=rubric, workers=workers, regrade=regrade,
                                             grade_one=grade_one, progress=progress, executor=executor,
                                             on_row=files.write_student, keys_out=keys, on_reused=early.check)
            made = {e.student: unrostered_row(e, why, rubric) for e in entries if (why := unrostered.get(e.student))}
            rows = StoredRows(store, [s for s in order if s in keys or s in old or s in made],  # keys: to_grade's
                              lambda s: keys.get(s) or (last.keys.get(s) if last else None),
                              made=made, lost=graded_rows.lost)
            listed = class_list(roster, [(r.student, r.source) for r in rows], rubric) if roster else None
            written = files.finish(rows, tuple(intake), roster=listed, done=early.done)
            files.keep_record()
            changed = say_changes(out_dir, store, last, graded_rows, keys, rubric, before, graded)
            LastClass.write(store, rows, rows.key, rubric, last)
    except OutputBusy as busy:
        raise BatchInputError(str(busy)) from None
    return BatchResult(rows, graded, len(to_grade) - graded + len(old), out_dir, written, listed, len(old), changed)


def grade_rows(entries: Sequence[Entry], store: Store, *, rubric: Rubric, workers: int | None, regrade: bool,
               grade_one: GradeOne, progress: bool, executor: Executor,
               on_row: Callable[[BatchRow], None] | None = None,
               keys_out: dict[str, GradeKey] | None = None,
               on_reused: Callable[[Iterable[BatchRow]], None] | None = None) -> tuple[StoredRows, int]:
    """Every entry's row, in the entries' order, grading what the store lacks (all with regrade);
    on_row(row) as each is stored; on_reused(rows): the stored rows reused, walked once while the workers start
    (when any has a job).
    Returns (rows, how many this run graded): the rows as the store holds them, read when walked (class_rows.py)."""
    by_student = {e.student: e for e in entries}
    # each student's rubric: the course's, with the student's variant on it ([variants]; only those are kept)
    variants = {e.student: with_variant(rubric, v) for e in entries if (v := entry_variant(rubric, e))}
    rubrics = _Rubrics(variants, rubric)
    keys: dict[str, GradeKey] = {} if keys_out is None else keys_out
    finals: set[str] = set()  # the students whose stored row is a grade to keep

    def read_store() -> None:
        paths = [e.where for e in entries]  # keyed by the course's rubric: it decides each variant
        keys.update(zip(by_student, grade_keys(paths, rubric, content_digests(paths, store))))
        finals.update(store.finals(keys))  # from the key columns: no row, brief or report is read

    # a new gradebook (or --regrade) grades every entry: the workers start before the rest is read. A rerun
    # decides what to grade from the keys alone (the submissions' digests, remembered with their stat, and the
    # store's key columns); the reused rows are walked while the workers start
    everything = regrade or not store.count()
    if not everything:
        read_store()
    todo = [e for e in entries if everything or e.student not in finals]
    # made as the executor queues them: a job it has handed out is dropped (a list here would hold them all)
    jobs = (Job(e.student, e.where, variants[e.student].variant if e.student in variants else None) for e in todo)
    done = [0, 0]  # graded by this run: to keep; among the students already kept (a --regrade's)

    def meanwhile() -> None:  # while the workers start, before any is handed a job
        if everything:
            read_store()
        if todo and grade_one is grade_hidden:
            prepare_hidden(hidden_courses(rubric))  # a rubric without a hidden seed: a ConfigError, once
        if todo and on_row is not None and everything:  # the whole class: what its files need at the end, now
            prepare_class_files()
        if todo and on_row is not None and not everything:  # a rerun: what it writes after grading, ready now
            prepare_renderers()
            if on_reused is not None:
                on_reused(StoredRows(store, [e.student for e in entries if e.student in finals], keys.get))
        # what is here now (the kit, its libraries) lives to the end: kept out of the collector's full passes,
        # which the growing rows trigger (~0.3 ms a submission in a class of 200)
        gc.freeze()

    def on_done(job: Job, report: Report | None, why: str | None) -> None:
        entry = by_student[job.student]
        if report is None:
            from autograder.scoring import crashed_report  # a crash's row only: not imported before grading

            report = crashed_report(job.student, why, rubrics[job.student], sandbox="unknown")
        row = store.put(_row(entry, report, final=why is None), keys[job.student])
        if on_row is not None:
            on_row(row)  # now, while the workers grade on
        done[0] += row.final
        done[1] += job.student in finals
        advance(job.student)  # the row is in the store and its files: the class holds nothing of it

    try:
        with progress_bar(len(entries), len(entries) - len(todo), enabled=progress) as advance:
            # one submission to grade (a rerun after one upload): graded here, as `grade PATH` does (in_place.py)
            where = InPlace() if suits(todo, grade_one, executor is LOCAL) else executor
            where.grade(jobs, workers=max(1, workers or 1), grade_one=grade_one, rubric=rubric,
                        on_done=on_done, meanwhile=meanwhile)
    except KeyboardInterrupt:
        kept = sum(e.student in finals for e in entries) - done[1]  # stored to keep, not graded again yet
        message = (f"interrupted: {kept + done[0]} of {len(entries)} submission(s) are graded and kept in "
                   f"{store.path}; run the same command again to grade the rest.")
        print(f"\n{message}", file=sys.stderr)
        raise BatchInterrupted(message) from None
    finally:
        gc.unfreeze()  # the caller's objects are the collector's again
    # the class's rows, read from the store when walked (class_rows.py): one pass each, none held
    return StoredRows(store, list(by_student), keys.get,
                      lost=lambda s: _lost(by_student[s], rubrics[s])), len(todo)


class _Rubrics(dict):
    """Each student's rubric: their variant's where they have one, else the course's."""

    def __init__(self, variants: dict[str, Rubric], course: Rubric):
        super().__init__(variants)
        self.course = course

    def __missing__(self, student: str) -> Rubric:
        return self.course


def check_entries(entries: list[Entry], out_dir: Path) -> None:
    """An output folder that can be written and one submission per student id, or one line."""
    if out_dir.exists() and not out_dir.is_dir():
        raise BatchInputError(f"{out_dir} is a file; --out needs a folder (new or from an earlier run)")
    repeated = sorted(s for s, n in Counter(e.student for e in entries).items() if n > 1)
    if repeated:
        raise BatchInputError(f"more than one submission for student id(s) {', '.join(repeated)}")


def _lost(entry: Entry, rubric: Rubric) -> BatchRow:
    from autograder.scoring import crashed_report

    why = "no result was recorded for this submission (a bug in the kit); run again to retry it"
    return _row(entry, crashed_report(entry.student, why, rubric, sandbox="unknown"), final=False)


def _row(entry: Entry, report: Report, *, final: bool) -> BatchRow:
    late = entry.late
    return BatchRow(entry.student, report, None if late is None else bool(late),
                    str(entry.source or ""), str(entry.original or ""), final)
