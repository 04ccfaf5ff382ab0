"""Does the grading process still write a class's rows and files to the byte as it did?

golden/class_reports.jsonl.gz holds 21 reports of a real class (bench_batch's class of 200, graded by the kit: every
kind it has, passed, named mistakes with graphs, unfinished, a SyntaxError, a missing import, a timeout), and
golden/class_outputs.json the SHA-256 of what the kit wrote of them: each student's reports/<name>.json and
feedback/<name>.html and gradebook.sqlite's row. The rows are stored and the files written as a batch does, one
submission at a time (Store.put, then OutputFiles.write_student), twice in one process: once with nothing kept, and
again with every case's texts kept from the first time.

When a change to what these files say is meant: `python tests/batch/test_pages_golden.py --write`, and say why in
the commit.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from autograder.batch.keys import GradeKey
from autograder.batch.outputs import OutputFiles
from autograder.batch.report_json import report_from_dict
from autograder.batch.row import BatchRow
from autograder.batch.store import Store

GOLDEN = Path(__file__).resolve().parent / "golden"
REPORTS = GOLDEN / "class_reports.jsonl.gz"
OUTPUTS = GOLDEN / "class_outputs.json"
KEY = GradeKey("c" * 64, "0.1.0", "1234", "r" * 64)

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="the pages' pictures need graphviz's dot")


def class_rows() -> list[BatchRow]:
    with gzip.open(REPORTS, "rt", encoding="utf-8") as f:
        found = [json.loads(line) for line in f]
    return [BatchRow(d["student"], report_from_dict(d["report"]), d["late"], d["source"], d["original"], d["final"])
            for d in found]


def written(out: Path) -> dict[str, str]:
    """The SHA-256 of each file written under out, and of each row of its store (every column but graded_at)."""
    def sha(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    digests = {str(p.relative_to(out)): sha(p.read_bytes())
               for folder in ("reports", "feedback") for p in sorted((out / folder).iterdir())}
    db = sqlite3.connect(out / "gradebook.sqlite")
    try:
        for row in db.execute("SELECT student, content, kit_version, hidden_seed, rubric, final, late, source, original, "
                              "report, brief, digest FROM grades ORDER BY student"):
            digests[f"grades/{row[0]}"] = sha(json.dumps(row, ensure_ascii=False).encode("utf-8"))
    finally:
        db.close()
    return dict(sorted(digests.items()))


def write_class(out: Path, rows: list[BatchRow]) -> dict[str, str]:
    """Each row stored and its files written as the grading process does, in the class's order."""
    out.mkdir()
    with Store(out / "gradebook.sqlite") as store:
        files = OutputFiles(out, [row.student for row in rows], store,
                            full=lambda row: store.get(row.student, KEY))
        for row in rows:
            files.write_student(store.put(row, KEY))
    return written(out)


def test_are_a_real_class_s_rows_and_files_written_to_the_byte_as_before(tmp_path):
    rows = class_rows()
    golden = json.loads(OUTPUTS.read_text(encoding="utf-8"))
    first = write_class(tmp_path / "first", rows)
    assert len(first) == 3 * len(rows)
    assert first == golden
    assert write_class(tmp_path / "again", rows) == golden  # every case's texts kept from the first time


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        OUTPUTS.write_text(json.dumps(write_class(Path(tmp) / "out", class_rows()), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUTS}")
