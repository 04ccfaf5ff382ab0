"""Does `merge` hold nothing a class's size multiplies? (issue 32, items 1 and 2)

The shards' rows are copied into the merge's store and its students' files taken from the shards as they are, a
row at a time; the class's files are made from the merged store as a batch's are. The memory Python allocates
during the whole merge, measured by tracemalloc (allocations counted, not time: the same on a loaded machine),
grows with a class ten times as large only by what the merge must know of each student (their id, in the
manifests and the class's order, and their grade's key) and what the summary lists, never by a row, a brief, a
parsed report or a rendered page. The figures for the whole merge process are benchmarks/bench_scale.py's.
"""
from __future__ import annotations

import gc
import sqlite3
import tracemalloc
from pathlib import Path

import pytest

from autograder.batch.keys import GradeKey
from autograder.batch.merge import merge_shards
from autograder.batch.outputs import OutputFiles
from autograder.batch.row import BatchRow
from autograder.batch.run import STORE_NAME, BatchInputError
from autograder.batch.shard import Shard
from autograder.batch.shard_manifest import ShardManifest, describe, write_manifest
from autograder.batch.store import Store
from autograder.config import Rubric
from batch_fakes import fake_report

RUBRIC = Rubric(hidden_seed=42)
SMALL, LARGE = 40, 400
# what the merge knows of a student (~370 B measured: the id in the class's order, its grade's key with the content
# digest, a score in the summary); the merge that held every row with its brief (and the report parsed from it),
# and each manifest's class list, allocated ~1,400 B a student of these fake reports (a real report's brief is larger)
PER_STUDENT = 800


def shard_folders(root: Path, count: int, shards: int = 2) -> list[Path]:
    """The finished --out folders of `count` students split into `shards`, as grade_shard leaves them: each
    shard's rows in its store, its students' reports and pages, and its shard.json."""
    students = [f"s{i:05d}" for i in range(count)]
    about = describe(RUBRIC)
    seed = str(RUBRIC.hidden_seed)
    folders = []
    for index in range(1, shards + 1):
        out = root / f"shard-{index}"
        out.mkdir(parents=True)
        mine = [s for s in students if Shard(index, shards).owns(s)]
        own = {s: f"{int(s[1:]):064x}" for s in mine}
        keys = {s: GradeKey(own[s], about["kit_version"], seed, about["rubric"]) for s in mine}
        with Store(out / STORE_NAME) as store:
            files = OutputFiles(out, students, store, full=lambda row, store=store, keys=keys:
                                store.get(row.student, keys[row.student]))
            for s in mine:
                i = int(s[1:])
                report = fake_report(s, RUBRIC, fail=("mul",) if i % 3 == 0 else ())
                row = store.put(BatchRow(s, report, late=i % 5 == 0, source="folder", original=f"{s}.py"), keys[s])
                files.write_student(row)
            files.keep_record()
        write_manifest(out, ShardManifest(shard=f"{index}/{shards}", **about, roster=tuple(students),
                                          intake=("a.txt: not a submission",), own=own, finished=True))
        folders.append(out)
    return folders


def merge_peak(root: Path, count: int) -> tuple[int, Path]:
    """(the peak of what the merge allocated, its output folder)."""
    folders = shard_folders(root, count)
    gc.collect()
    tracemalloc.start()
    try:
        result = merge_shards(folders, root / "merged", rubric=RUBRIC)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.rows) == count
    return peak, root / "merged"


def test_does_merging_a_class_ten_times_larger_allocate_little_more(tmp_path):
    merge_peak(tmp_path / "warm", 3)  # the renderers' imports and templates, Pillow's font: once a process
    small, _ = merge_peak(tmp_path / "small", SMALL)
    large, _ = merge_peak(tmp_path / "large", LARGE)
    assert large - small < (LARGE - SMALL) * PER_STUDENT, (small, large)


def test_are_the_merged_rows_read_from_the_merged_store_in_the_class_order(tmp_path):
    _, out = merge_peak(tmp_path / "c", 30)
    result = merge_shards(shard_folders(tmp_path / "again", 30), out, rubric=RUBRIC)  # into the same folder
    assert [r.student for r in result.rows] == [f"s{i:05d}" for i in range(30)]
    assert [r.student for r in result.rows if r.report.score < r.report.max_score] == \
        [f"s{i:05d}" for i in range(0, 30, 3)]
    assert (out / "gradebook.csv").read_text().count("\n") == 31


def test_does_the_merge_refuse_a_shard_whose_store_lost_a_grade_in_one_line(tmp_path):
    folders = shard_folders(tmp_path, 12)
    db = sqlite3.connect(folders[1] / STORE_NAME)
    gone = sorted(s for (s,) in db.execute("SELECT student FROM grades"))[:2]
    db.executemany("DELETE FROM grades WHERE student = ?", [(s,) for s in gone])
    db.commit()
    db.close()
    with pytest.raises(BatchInputError, match=rf"shard 2/2 \(.*\) has no grade for 2 of its students \({gone[0]}, {gone[1]}\)"):
        merge_shards(folders, tmp_path / "merged", rubric=RUBRIC)
