"""`autograder grade PATH... --out DIR --shard I/N`: grade this machine's shard of a class.

Every shard discovers the whole class (so all agree on the ids, their order and what intake
said), grades only the students the shard owns into DIR's store, and writes DIR/shard.json.
Its students' reports/ and feedback/ pages are written here, named as in the whole class (and
remembered in the store as a batch's are: outputs.py), so `autograder merge` copies them as they are;
no class file is written here: merge writes those from all the shards, byte for byte as one
machine would have. A shard killed part-way resumes like any batch: the same command
grades only what its store lacks.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

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
    rows: tuple[BatchRow, ...]   # this shard's students, in the class's order
    graded: int
    class_size: int
    out_dir: Path


def grade_shard(entries: Sequence[Entry], out_dir: Path, *, shard: Shard, rubric: Rubric,
                workers: int | None = None, regrade: bool = False, grade_one: GradeOne = grade_hidden,
                progress: bool = True, intake: Sequence[str] = (), executor: Executor = LOCAL) -> ShardResult:
    entries = list(entries)
    out_dir = Path(out_dir)
    check_entries(entries, out_dir)
    own = [e for e in entries if shard.owns(e.student)]
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = ShardManifest(shard=str(shard), **describe(rubric), roster=tuple(e.student for e in entries),
                             intake=tuple(intake),
                             own={e.student: grade_key(Path(e.path), rubric).content for e in own})
    try:
        with hold_output(out_dir), Store(out_dir / STORE_NAME) as store:
            write_manifest(out_dir, manifest)  # not finished: merge refuses it until the rest is graded
            # its students' own files, named as in the whole class, so that merge takes them as they are
            keys: dict = {}
            files = OutputFiles(out_dir, manifest.roster, store,
                                full=lambda row: store.get(row.student, keys[row.student]))
            rows, graded = grade_rows(own, store, rubric=rubric, workers=workers, regrade=regrade,
                                      grade_one=grade_one, progress=progress, executor=executor,
                                      on_row=files.write_student, keys_out=keys, paint=False)
            for row in rows:  # those stored by an earlier run, checked (and written if missing or touched)
                files.write_student(row)
            files.keep_record()
            write_manifest(out_dir, replace(manifest, finished=True))
    except OutputBusy as busy:
        raise BatchInputError(str(busy)) from None
    return ShardResult(shard, rows, graded, len(entries), out_dir)
