"""Which of the class's files a rerun can leave alone, decided from keys, not by making the file again.

A class file is made from part of the class: the histogram from the scores' bins, the number of submissions
and the top score only (histogram.DRAWN_FROM), not the rest of the summary. Its key is a digest of that part,
so a rerun where one student's report changed but the bins did not (a new engine scoring in the same tenth,
a student's page worded otherwise) leaves the picture as it is: the same bytes are not drawn again. outputs.py
writes a costly file only when its key (with the renderers') differs from the one recorded with the file, or
the file was touched since.

A rerun with a submission to grade also does, while the worker (or the sandbox's zygote) starts, what it would
otherwise do after: the reused rows' own files checked (EarlyFiles) and the feedback page's templates compiled
(prepare_renderers).
"""
from __future__ import annotations

import hashlib
import json
import os

from autograder.batch.exports import HISTOGRAM


def made_from(name: str, summary: dict) -> str:
    """A digest of the part of the class's summary the class file `name` is made from (all of it, but for the
    histogram)."""
    if name == HISTOGRAM:
        from autograder.report.histogram import DRAWN_FROM
        part = {key: summary.get(key) for key in DRAWN_FROM}
    else:
        part = summary
    text = json.dumps(part, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class EarlyFiles:
    """The reused rows' own files (reports/, feedback/), checked while the workers start rather than at the end.

    check(rows) writes each reused row's files where they are not up to date (outputs.OutputFiles.write_student)
    and keeps a digest of their stat after. At the end, finish() asks done(row): the same files are looked at
    again (one stat each, no record read, no digest of inputs made) and, when not one of them was replaced or
    written since, finish need not check them again; when any was, every one is checked as before. The files
    of the students graded by this run are written as each is stored, and checked again at the end as before.
    """

    def __init__(self, files):
        self.files = files
        self.students: dict[str, None] = {}   # the students checked early, in order
        self.digest = ""
        self._unchanged: bool | None = None

    def check(self, rows) -> None:
        for row in rows:
            self.files.write_student(row)
            self.students[row.student] = None
        self.digest = self._stats()

    def done(self, row) -> bool:
        """Are row's files checked already, and untouched since?"""
        if row.student not in self.students:
            return False
        if self._unchanged is None:
            self._unchanged = self._stats() == self.digest
        return self._unchanged

    def _stats(self) -> str:
        from autograder.batch.exports import STUDENT_EXPORTS
        from autograder.batch.ids import file_names

        h = hashlib.sha256()
        root = str(self.files.out_dir)
        for student in self.students:
            name = self.files.names.get(student) or file_names([student])[0]
            for export in STUDENT_EXPORTS:
                rel = f"{export.folder}/{name}{export.suffix}"
                try:
                    st = os.stat(os.path.join(root, rel))
                    seen = f"{rel}\0{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}\n"
                except OSError:
                    seen = f"{rel}\0\n"
                h.update(seen.encode("utf-8", "surrogateescape"))
        return h.hexdigest()


def prepare_renderers() -> None:
    """What writing a graded student's files imports and compiles (the feedback page's templates), done while the
    workers start: a rerun of one student then waits for none of it after the grading."""
    from autograder.report import html_report, json_text  # noqa: F401
    from autograder.report.jinja_env import template

    template(html_report.TEMPLATE)
    template(html_report.CASE_TEMPLATE)


def prepare_class_files() -> None:
    """What writing the class's files imports and compiles (Pillow and its fonts for the histogram, the summary
    page's template), done while the workers' server imports the kit: a class graded whole then ends with none of
    it (~45 ms of CPU, on one CPU, once the last submission is graded)."""
    from PIL import Image, ImageDraw, PngImagePlugin  # noqa: F401  - report/histogram.py's

    from autograder.report import csv_report, histogram, summary_tally  # noqa: F401
    from autograder.report.jinja_env import template
    from autograder.report.summary_html import TEMPLATE

    histogram.ready()
    template(TEMPLATE)
