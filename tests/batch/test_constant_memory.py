"""Does writing a class's files hold nothing a class's size multiplies? (issue 32, item 1)

The class's files (gradebook, summaries, page) are made from the store a row at a time: the memory Python
allocates while they are written, measured by tracemalloc (allocations counted, not time: the same on a
loaded machine), grows with a class ten times as large only by what the summary itself lists (a score a
student, the names of those who made a mistake), never by a row, a brief or a rendered file.
The figures for the whole grading process are benchmarks/bench_scale.py's (--replay).
"""
from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

from autograder.batch.class_rows import StoredRows
from autograder.batch.keys import GradeKey
from autograder.batch.outputs import OutputFiles
from autograder.batch.row import BatchRow
from autograder.batch.store import Store
from autograder.config import Rubric
from autograder.report.csv_report import render_gradebook
from autograder.report.summary import build_summary
from batch_fakes import fake_report

RUBRIC = Rubric(hidden_seed=42)
SMALL, LARGE = 40, 400
# what the summary lists of a student at most (a score, a name under a mistake; ~70 B measured): well under a row's brief
# (~1 KB parsed) or its share of summary.html (~0.5 KB), which a class's files held before
PER_STUDENT = 200


def a_stored_class(folder: Path, count: int) -> tuple[Store, dict[str, GradeKey]]:
    folder.mkdir(parents=True)
    store = Store(folder / "gradebook.sqlite")
    keys = {}
    for i in range(count):
        student = f"s{i:05d}"
        report = fake_report(student, RUBRIC, fail=("mul",) if i % 3 == 0 else ())
        keys[student] = GradeKey(f"{i:064x}", "kit", "42", "rubric")
        store.put(BatchRow(student, report, late=i % 5 == 0, source="folder", original=f"{student}.py"), keys[student])
    return store, keys


def class_files(folder: Path, count: int) -> tuple[int, StoredRows, Path]:
    """(the peak of what writing the class's files allocated, the rows, the output folder)."""
    store, keys = a_stored_class(folder, count)
    out = folder / "out"
    files = OutputFiles(out, list(keys), store, full=lambda row: store.get(row.student, keys[row.student]))
    rows = StoredRows(store, list(keys), keys.get)
    for row in rows:  # each student's own files first, as a batch writes them while it grades
        files.write_student(row)
    gc.collect()
    tracemalloc.start()
    try:
        files.finish(rows, ["a.txt: not a submission"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    files.keep_record()
    return peak, rows, out


def test_does_writing_a_class_ten_times_larger_allocate_little_more(tmp_path):
    class_files(tmp_path / "warm", 3)  # the renderers' imports and templates: once a process
    small, _, _ = class_files(tmp_path / "small", SMALL)
    large, _, _ = class_files(tmp_path / "large", LARGE)
    assert large - small < (LARGE - SMALL) * PER_STUDENT, (small, large)


def test_are_the_class_files_made_a_row_at_a_time_those_made_from_a_list(tmp_path):
    _, rows, out = class_files(tmp_path / "c", 30)
    whole = list(rows)
    assert (out / "gradebook.csv").read_bytes() == render_gradebook(whole).encode()
    summary = build_summary([r.report for r in whole], late=sum(bool(r.late) for r in whole),
                            intake=["a.txt: not a submission"])
    assert json.loads((out / "summary.json").read_text()) == summary
    page = (out / "summary.html").read_text()
    assert page.count('<tr><th scope="row"><a href="feedback/') == 30 and "s00029" in page


def test_is_the_last_class_kept_a_row_at_a_time_and_an_earlier_kits_text_still_read(tmp_path):
    """The last class (regrade.py) goes to a table of its own, not one text of the whole class; a folder whose last
    class an earlier kit wrote as that one text is read as before."""
    from autograder.batch.regrade import META_KEY, LastClass

    store, keys = a_stored_class(tmp_path / "c", 3)
    rows = StoredRows(store, list(keys), keys.get)
    LastClass.write(store, rows, lambda s: keys[s] if s != "s00001" else None, RUBRIC)
    assert len(store.meta(META_KEY)) < 2000  # the rubric's settings, not the class
    last = LastClass.read(store)
    assert last.students == ("s00000", "s00001", "s00002") and set(last.keys) == {"s00000", "s00002"}
    assert last.keys["s00002"] == keys["s00002"] and last.sources["s00001"] == "folder"
    assert last.unrostered == {"s00001": {"late": False, "original": "s00001.py", "source": "folder"}}

    earlier = {"students": list(last.students), "keys": {s: [k.content, k.kit_version, k.hidden_seed, k.rubric]
                                                        for s, k in last.keys.items()},
               "sources": last.sources, "rubric": last.rubric, "unrostered": last.unrostered}
    store.set_meta(META_KEY, json.dumps(earlier, sort_keys=True))
    assert LastClass.read(store) == last
