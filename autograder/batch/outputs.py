"""Write a batch's files from its rows: the gradebook, each student's report and
feedback page, and the class summary. Every file is written atomically, and all
of them come from the store, so a resumed run writes the same complete set.

Given the store, a file is written only when it would change: the store remembers,
per file, a digest of what it was made from (the report as stored, the student's
id and lateness, the renderers' source) and the file's stat after writing (inode,
size, times). A file whose inputs and stat both still match is left alone; one that
is missing, was touched by anyone else, or would now read differently is written
again. So a resumed run with nothing new renders no report, page or histogram.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from autograder import __version__
from autograder.batch.ids import file_names
from autograder.batch.store import BatchRow, Store
from autograder.files import write_bytes_atomic
from autograder.batch.exports import (
    CLASS_EXPORTS, FEEDBACK, GRADEBOOK, HISTOGRAM, REPORTS, STUDENT_EXPORTS, SUMMARY_HTML, SUMMARY_JSON, SUMMARY_MD,
    json_text,
    renderers,
)

_KIT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Written:
    gradebook: Path
    reports: Path
    feedback: Path
    summary_json: Path
    summary_md: Path
    histogram: Path
    summary_html: Path
    summary: dict
    # reports/ and feedback/ files of students not in this run: removed (the kit wrote them and nobody
    # changed them since), or kept and said (anyone else's, or edited since)
    removed: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def write_outputs(out_dir: Path, rows: Sequence[BatchRow], *, store: Store | None = None) -> Written:
    """Write every output file for `rows`; with `store`, skip the files already up to date there."""
    files = OutputFiles(out_dir, [r.student for r in rows], store.outputs() if store is not None else {})
    written = files.finish(rows)
    if store is not None:
        store.set_outputs(files.record)
    return written


class OutputFiles:
    """The batch's output files: a student's as soon as their row is known, the class's at the end.

    Every write is atomic and skipped when the file is up to date (its recorded inputs and
    stat still match). finish() checks every file again, so one written early and then
    replaced or edited by anyone else before the end is written once more.
    """

    def __init__(self, out_dir: Path, students: Sequence[str], known: dict[str, tuple[str, str]]):
        self.out_dir = Path(out_dir)
        self.names = dict(zip(students, file_names(students)))
        self._files = _Files(self.out_dir, dict(known))

    @property
    def record(self) -> dict[str, tuple[str, str]]:
        """path -> (inputs, stat) of every file written or found up to date: for Store.set_outputs."""
        return self._files.now

    def write_student(self, row: BatchRow) -> None:
        """reports/<name>.json and feedback/<name>.html of one row."""
        name = self.names.get(row.student) or file_names([row.student])[0]
        key = row.digest or None  # no digest (a row not from the store): always written
        for export in STUDENT_EXPORTS:
            more = (row.student, row.late) if export.keyed_by_student else ()
            self._files.write(f"{export.folder}/{name}{export.suffix}", _inputs(export.folder, key, *more),
                              lambda render=export.render: render(row))

    def finish(self, rows: Sequence[BatchRow], intake: Sequence[str] = (), roster=None) -> Written:
        """Every student's files (those already written checked again), then the gradebook and summary.
        roster: the class list (batch/class_list.py), whose unrostered and missing students they name."""
        from autograder.report.summary import build_summary  # the class's only: not imported before grading

        out_dir = self.out_dir
        written = Written(out_dir / GRADEBOOK, out_dir / REPORTS, out_dir / FEEDBACK, out_dir / SUMMARY_JSON,
                          out_dir / SUMMARY_MD, out_dir / HISTOGRAM, out_dir / SUMMARY_HTML,
                          build_summary([r.report for r in rows], late=sum(bool(r.late) for r in rows),
                                        intake=intake, roster=roster))
        summary_key = _sha(json_text(written.summary))
        for export in CLASS_EXPORTS:  # a costly file made elsewhere (the histogram's painter) starts first
            if export.ahead and (not export.only_with or export.only_with in written.summary) \
                    and not self._files.current(export.name, _inputs(export.name, summary_key)):
                export.ahead(written.summary)
        for row in rows:
            self.write_student(row)
        for export in CLASS_EXPORTS:
            if export.only_with and export.only_with not in written.summary:
                continue
            if export.costly:  # rendered only when the summary changed
                self._files.write(export.name, _inputs(export.name, summary_key),
                                  lambda render=export.render: render(rows, written.summary))
            else:
                self._files.write_bytes(export.name, export.render(rows, written.summary))
        removed, kept = self._files.clear_others(sorted({export.folder for export in STUDENT_EXPORTS}))
        return replace(written, removed=tuple(removed), kept=tuple(kept))


class _Files:
    """Writes files under `root` atomically, skipping one whose recorded inputs and stat still match."""

    def __init__(self, root: Path, known: dict[str, tuple[str, str]]):
        self.root = root
        self.known = known                          # the record from the last run
        self.now: dict[str, tuple[str, str]] = {}   # the record after this run
        self.this_run: set[str] = set()             # every file written or found up to date by this run

    def current(self, rel: str, inputs: str | None) -> bool:
        """Is root/rel up to date: made from these inputs, and untouched since?"""
        old = self.now.get(rel) or self.known.get(rel)
        return inputs is not None and old is not None and old[0] == inputs and old[1] == _stat(self.root / rel)

    def write(self, rel: str, inputs: str | None, render: Callable[[], bytes]) -> bool:
        """Write root/rel from render() unless it is up to date; inputs None: always write."""
        self.this_run.add(rel)
        if self.current(rel, inputs):
            self.now[rel] = self.now.get(rel) or self.known[rel]
            return False
        path = self.root / rel
        write_bytes_atomic(path, render())
        if inputs is not None:
            self.now[rel] = (inputs, _stat(path))
        else:
            self.now.pop(rel, None)
        return True

    def clear_others(self, folders: Sequence[str]) -> tuple[list[str], list[str]]:
        """The files in `folders` this run did not write (students no longer in the class): removed when the
        record says the kit wrote them as they are; kept (and listed) when anyone else wrote or changed them."""
        removed, kept = [], []
        for folder in folders:
            entries = sorted((self.root / folder).iterdir()) if (self.root / folder).is_dir() else []
            for path in entries:
                rel = f"{folder}/{path.name}"
                if rel in self.this_run or not path.is_file() or path.is_symlink():
                    continue
                old = self.known.get(rel)
                if old is not None and old[1] == _stat(path):
                    path.unlink()
                    removed.append(rel)
                else:
                    kept.append(rel)
        return removed, kept

    def write_bytes(self, rel: str, data: bytes) -> bool:
        """A file rendered already: written when its bytes differ from what was written last."""
        return self.write(rel, _inputs("text", _sha(data)), lambda: data)


def _inputs(kind: str, digest: str | None, *more) -> str | None:
    """A digest of what a file is made from (None when that is not known: the file is written)."""
    if digest is None:
        return None
    return _sha(json.dumps([kind, _renderers(), digest, *more]))


@lru_cache(maxsize=None)
def _renderers() -> str:
    """A digest of the kit version and of the renderers' source and templates, once a process."""
    h = hashlib.sha256(__version__.encode())
    for rel in renderers():
        path = _KIT / rel
        for file in sorted(path.iterdir()) if path.is_dir() else (path,):
            if file.is_file():
                h.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()


def _sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data).hexdigest()


def _stat(path: Path) -> str:
    """What changes whenever the file is replaced or written to ("" for no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
