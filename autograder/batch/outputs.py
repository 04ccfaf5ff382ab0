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
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

from autograder import __version__
from autograder.batch.class_walk import ClassInputs, WalkedRows
from autograder.batch.ids import file_names
from autograder.batch.output_record import MemoryRecord, StoreRecord, record_of
from autograder.batch.store import BatchRow, Store
from autograder.batch.unchanged import made_from
from autograder.files import AtomicFile, write_bytes_atomic
from autograder.batch.exports import (
    CLASS_EXPORTS, FEEDBACK, GRADEBOOK, HISTOGRAM, REPORTS, STUDENT_EXPORTS, SUMMARY_HTML, SUMMARY_JSON, SUMMARY_MD,
    StudentExport,
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
    files = OutputFiles(out_dir, [r.student for r in rows], store if store is not None else {})
    written = files.finish(rows)
    files.keep_record()
    return written


class OutputFiles:
    """The batch's output files: a student's as soon as their row is known, the class's at the end.

    Every write is atomic and skipped when the file is up to date (its recorded inputs and
    stat still match). finish() checks every file again, so one written early and then
    replaced or edited by anyone else before the end is written once more.
    """

    def __init__(self, out_dir: Path, students: Sequence[str], known: Store | dict[str, tuple[str, str]],
                 full: Callable[[BatchRow], BatchRow] | None = None):
        """known: the store whose record of the files is read and kept a file at a time (output_record.py), or
        the record of the last run as a dict (path -> (inputs, stat)).
        full(row): a row whose report is a brief (brief.py) with its full report, to write the student's files."""
        self.out_dir = Path(out_dir)
        self.full = full
        # the names that are not the id itself (most are): file_names([id]) alone gives the others
        self.names = {s: n for s, n in zip(students, file_names(students)) if n != s}
        self._files = _Files(self.out_dir, record_of(known))

    def keep_record(self) -> dict[str, tuple[str, str]] | None:
        """Once finished (or every student's files written): the record of every file written or found up to
        date, in the store (committed) or returned (path -> (inputs, stat))."""
        return self._files.record.keep()

    def student_files(self, row: BatchRow) -> list[tuple[str, str | None, StudentExport]]:
        """(path, inputs digest, export) of each of a row's own files."""
        name = self.names.get(row.student) or file_names([row.student])[0]
        key = row.digest or None  # no digest (a row not from the store): always written
        return [(f"{export.folder}/{name}{export.suffix}",
                 _inputs(export.folder, key, *((row.student, row.late) if export.keyed_by_student else ())), export)
                for export in STUDENT_EXPORTS]

    def adopt(self, row: BatchRow, folder: Path, record: Callable[[str], tuple[str, str] | None]) -> None:
        """Take a row's files from another output folder (a shard's) as they are, where its record says they were
        made from the same inputs and are untouched since: copied, not rendered again (the rest are, by finish)."""
        for rel, inputs, _ in self.student_files(row):
            if inputs is None or self._files.current(rel, inputs) or record(rel) != (inputs, _stat(folder / rel)):
                continue
            write_bytes_atomic(self.out_dir / rel, (folder / rel).read_bytes())
            self._files.record.put(rel, (inputs, _stat(self.out_dir / rel)))

    def write_student(self, row: BatchRow) -> None:
        """reports/<name>.json and feedback/<name>.html of one row."""
        whole: list[BatchRow] = []  # the full report, read once and only if a file is to be written

        def full() -> BatchRow:
            if not whole:
                if row.brief and self.full is None:
                    raise ValueError(f"{row.student}: a brief, and no store to read the report from")
                whole.append(self.full(row) if row.brief else row)
            return whole[0]

        for rel, inputs, export in self.student_files(row):
            self._files.write(rel, inputs, lambda render=export.render: render(full()))

    def finish(self, rows: Iterable[BatchRow], intake: Sequence[str] = (), roster=None,
               done: Callable[[BatchRow], bool] | None = None) -> Written:
        """Every student's files (those already written checked again), then the gradebook and summary.
        roster: the class list (batch/class_list.py), whose unrostered and missing students they name.
        rows: walked once for each thing made of them (the students' files, the summary, the gradebook, the
        page), each walk a pass over the store (class_rows.py): nothing of the class is held but its summary.
        done(row): the row's files are checked already, and untouched since (unchanged.EarlyFiles)."""
        from autograder.report.summary_tally import SummaryTally  # the class's only: not imported before grading

        out_dir = self.out_dir
        inputs = ClassInputs()
        for row in rows:
            if done is None or not done(row):
                self.write_student(row)
            inputs.add(row)
        removed, kept = self._files.clear_others(sorted({export.folder for export in STUDENT_EXPORTS}))
        paths = (out_dir / GRADEBOOK, out_dir / REPORTS, out_dir / FEEDBACK, out_dir / SUMMARY_JSON,
                 out_dir / SUMMARY_MD, out_dir / HISTOGRAM, out_dir / SUMMARY_HTML)
        the_class = _inputs(_CLASS, inputs.digest(intake, roster))  # None: a row not from the store
        if self._class_current(the_class):  # the same rows as the files were made from: none is made again
            summary = json.loads((out_dir / SUMMARY_JSON).read_text(encoding="utf-8"))
            return Written(*paths, summary, removed=tuple(removed), kept=tuple(kept))
        tally, the_rows = SummaryTally(), WalkedRows(rows, self.names)
        for row in rows:
            tally.add(row.report, late=row.late)
            the_rows.alias(row)
        written = Written(*paths, tally.summary(late=tally.late, intake=intake, roster=roster),
                          removed=tuple(removed), kept=tuple(kept))
        self._write_class(the_rows, written)
        if the_class is not None:
            self._files.record.put(_CLASS, (the_class, ""))
            self._files.record.mark(_CLASS)
        return written

    def _class_current(self, the_class: str | None) -> bool:
        """Were the class's files made from these rows (the_class), and is each untouched since? (Then marked so.)"""
        record = self._files.record
        names = [e.name for e in CLASS_EXPORTS if record.get(e.name) is not None or not e.only_with]
        if the_class is None or (record.get(_CLASS) or ("",))[0] != the_class \
                or not all(self._files.current(name, (record.get(name) or (None,))[0]) for name in names):
            return False
        for name in (_CLASS, *names):
            record.keep_last(name)
            record.mark(name)
        return True

    def _write_class(self, rows: WalkedRows, written: Written) -> None:
        """The class's files from its rows and summary, each written when it would change."""
        for export in CLASS_EXPORTS:
            if export.only_with and export.only_with not in written.summary:
                continue
            if export.costly:  # rendered only when what it is made from changed (unchanged.py)
                self._files.write(export.name, _inputs(export.name, made_from(export.name, written.summary)),
                                  lambda render=export.render: render(rows, written.summary))
            else:
                self._files.write_pieces(export.name, export.render(rows, written.summary))


_CLASS = "@class"  # the record's entry of what the class's files were made from (no file: _class_inputs)


class _Files:
    """Writes files under `root` atomically, skipping one whose recorded inputs and stat still match."""

    def __init__(self, root: Path, record: MemoryRecord | StoreRecord):
        self.root = root
        self.record = record  # the files' entries: as the last run left them, updated as this run writes

    def current(self, rel: str, inputs: str | None) -> bool:
        """Is root/rel up to date: made from these inputs, and untouched since?"""
        old = self.record.get(rel)
        return inputs is not None and old is not None and old[0] == inputs and old[1] == _stat(os.path.join(self.root, rel))

    def write(self, rel: str, inputs: str | None, render: Callable[[], bytes]) -> bool:
        """Write root/rel from render() unless it is up to date; inputs None: always write."""
        self.record.mark(rel)
        if self.current(rel, inputs):
            self.record.keep_last(rel)
            return False
        path = self.root / rel
        write_bytes_atomic(path, render())
        if inputs is not None:
            self.record.put(rel, (inputs, _stat(path)))
        else:
            self.record.drop(rel)
        return True

    def clear_others(self, folders: Sequence[str]) -> tuple[list[str], list[str]]:
        """The files in `folders` this run did not write (students no longer in the class): removed when the
        record says the kit wrote them as they are; kept (and listed) when anyone else wrote or changed them."""
        removed, kept = [], []
        for folder in folders:
            try:
                names = _names(self.root / folder)
            except (FileNotFoundError, NotADirectoryError):
                names = iter(())
            for name in names:  # walked as listed (a class's folders are never held whole), said in order
                rel = f"{folder}/{name}"
                if self.record.marked(rel):
                    continue
                path = self.root / rel
                if not path.is_file() or path.is_symlink():
                    continue
                old = self.record.get(rel)
                if old is not None and old[1] == _stat(path):
                    path.unlink()
                    removed.append(rel)
                else:
                    kept.append(rel)
        return sorted(removed), sorted(kept)

    def write_pieces(self, rel: str, pieces: Iterable[str]) -> bool:
        """A file rendered a piece at a time, never whole in memory: written beside it while its digest is taken,
        and put in place unless those are the bytes it was last written with and it is untouched since."""
        self.record.mark(rel)
        path, sha = self.root / rel, hashlib.sha256()
        with AtomicFile(path) as f:
            for piece in pieces:
                data = piece.encode("utf-8")
                sha.update(data)
                f.write(data)
            inputs = _inputs("text", sha.hexdigest())
            if self.current(rel, inputs):
                f.discard()
                self.record.keep_last(rel)
                return False
        self.record.put(rel, (inputs, _stat(path)))
        return True


def _names(folder: Path):
    with os.scandir(folder) as entries:
        yield from (entry.name for entry in entries)


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
