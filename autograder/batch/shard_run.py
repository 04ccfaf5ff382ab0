"""`autograder grade PATH... --out DIR --shard I/N`: grade this machine's shard of a class.

Every shard discovers the whole class (so all agree on the ids, their order and what intake
said), grades only the students the shard owns into DIR's store, and writes DIR/shard.json.
Its students' reports/ and feedback/ pages are written here, named as in the whole class (and
remembered in the store as a batch's are: outputs.py), so `autograder merge` copies them as they are;
no class file is written here: merge writes those from all the shards, byte for byte as one
machine would have. A shard killed part-way resumes like any batch: the same command
grades only what its store lacks. With a roster (class_list.py) a shard applies it to its own students as
one machine does (with [variants] an unrostered one is not graded, and its row says why), and its manifest
records the roster: the merge adds the missing students' rows from it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from autograder.batch.class_rows import StoredRows
from autograder.batch.class_list import Roster, remembered_roster, unrostered_entries, unrostered_row
from autograder.batch.entry import Entry
from autograder.batch.executors import LOCAL, Executor
from autograder.batch.keys import grade_key
from autograder.batch.lock import OutputBusy, hold_output
from autograder.batch.outputs import OutputFiles
from autograder.batch.run import STORE_NAME, BatchInputError, grade_rows, check_entries
from autograder.batch.shard import Shard
from autograder.batch.shard_manifest import ShardManifest, describe, write_manifest
from autograder.batch.store import BatchRow, Store
from autograder.batch.worker import GradeOne, grade_hidden
from autograder.config import Rubric


@dataclass(frozen=True)
class ShardResult:
    shard: Shard
    rows: Sequence[BatchRow]     # this shard's students, in the class's order (read from its store when walked)
    graded: int
    class_size: int
    out_dir: Path


def grade_shard(entries: Sequence[Entry], out_dir: Path, *, shard: Shard, rubric: Rubric,
                workers: int | None = None, regrade: bool = False, grade_one: GradeOne = grade_hidden,
                progress: bool = True, intake: Sequence[str] = (), executor: Executor = LOCAL,
                roster: Roster | None = None) -> ShardResult:
    """roster: the class list; None: the one the shard's folder remembers (from an earlier run of it), if any."""
    entries = list(entries)
    out_dir = Path(out_dir)
    check_entries(entries, out_dir)
    mine = [e for e in entries if shard.owns(e.student)]
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with hold_output(out_dir), Store(out_dir / STORE_NAME) as store:
            roster = remembered_roster(store, roster)
            unrostered = unrostered_entries(mine, roster, rubric)
            own = [e for e in mine if e.student not in unrostered]
            manifest = ShardManifest(shard=str(shard), **describe(rubric), roster=tuple(e.student for e in entries),
                                     intake=tuple(intake),
                                     own={e.student: grade_key(Path(e.path), rubric).content for e in own},
                                     class_roster=None if roster is None else json.loads(roster.to_json()),
                                     unrostered={e.student: [e.source, e.late, e.original]
                                                 for e in mine if e.student in unrostered})
            write_manifest(out_dir, manifest)  # not finished: merge refuses it until the rest is graded
            # its students' own files, named as in the whole class, so that merge takes them as they are
            keys: dict = {}
            files = OutputFiles(out_dir, manifest.roster, store,
                                full=lambda row: store.get(row.student, keys[row.student]))
            rows, graded = grade_rows(own, store, rubric=rubric, workers=workers, regrade=regrade,
                                      grade_one=grade_one, progress=progress, executor=executor,
                                      on_row=files.write_student, keys_out=keys)
            for row in rows:  # those stored by an earlier run, checked (and written if missing or touched)
                files.write_student(row)
            # not on the roster: not graded, and their rows say why (merge makes them again)
            made = {e.student: unrostered_row(e, why, rubric) for e in mine if (why := unrostered.get(e.student))}
            for row in made.values():
                files.write_student(row)
            # the shard's rows, read from its store when walked (class_rows.py): none held
            rows = StoredRows(store, [e.student for e in mine], keys.get, made=made, lost=rows.lost)
            files.keep_record()
            write_manifest(out_dir, replace(manifest, finished=True))
    except OutputBusy as busy:
        raise BatchInputError(str(busy)) from None
    return ShardResult(shard, rows, graded, len(entries), out_dir)
