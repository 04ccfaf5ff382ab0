"""Which of the class's files a rerun can leave alone, decided from keys, not by making the file again.

A class file is made from part of the class: the histogram from the scores' bins, the number of submissions
and the top score only (histogram.DRAWN_FROM), not the rest of the summary. Its key is a digest of that part,
so a rerun where one student's report changed but the bins did not (a new engine scoring in the same tenth,
a student's page worded otherwise) leaves the picture as it is: matplotlib is not imported to draw the same
bytes again. outputs.py writes a costly file only when its key (with the renderers') differs from the one
recorded with the file, or the file was touched since.
"""
from __future__ import annotations

import hashlib
import json

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
