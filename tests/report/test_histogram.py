"""Does the class's histogram show what the summary counts, readably, and the same bytes on every run?

Read back from the PNG itself (Pillow): the bars' pixel heights against the counts, the count over each bar,
the title, the colours' contrast (WCAG 2.1 AA) and the chunks the file carries."""
from __future__ import annotations

import hashlib
import io
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageColor

from autograder.report import histogram
from autograder.report.histogram import histogram_png

REPO = Path(__file__).resolve().parents[2]


def summary(counts, top=20, submissions=None):
    return {"histogram": {"edges": [round(top * i / len(counts), 4) for i in range(len(counts) + 1)],
                          "counts": counts},
            "max_score": top, "submissions": sum(counts) if submissions is None else submissions}


CLASSES = {"a class of 200": summary([3, 0, 1, 2, 5, 9, 17, 40, 73, 50]),
           "a class of 4, out of 10": summary([1, 0, 1, 0, 0, 0, 0, 1, 0, 1], top=10),
           "12345 in the top bin, out of 47": summary([0] * 9 + [12345], top=47),
           "out of 2.5": summary([4, 4, 0, 0, 2, 0, 0, 0, 9, 1], top=2.5)}


def rgb(name: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(name)[:3]


def bars(png: bytes) -> tuple[int, list[tuple[int, int, int]]]:
    """The x axis' row, and (left, right, height) of each bar, left to right: the runs of the bars' colour just
    above the axis, each one's height counted up its middle column."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    px, (width, height) = image.load(), image.size
    axis, bar = rgb(histogram.AXIS), rgb(histogram.BAR)
    bottom = max(range(height), key=lambda y: sum(px[x, y] == axis for x in range(width)))  # its longest run
    runs, start = [], None
    for x in range(width + 1):
        inside = x < width and px[x, bottom - 1] == bar
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            runs.append((start, x - 1))
            start = None
    found = []
    for left, right in runs:
        y = bottom - 1
        while px[(left + right) // 2, y] == bar:
            y -= 1
        found.append((left, right, bottom - 1 - y))
    return bottom, found


@pytest.mark.parametrize("name", CLASSES)
def test_are_the_bars_as_tall_as_their_counts(name):
    """One bar a bin with submissions, none for an empty bin, left to right as the bins; each bar's height in
    pixels the same multiple of its count (to the pixel: rounding and the bar's white edge)."""
    counts = CLASSES[name]["histogram"]["counts"]
    _, found = bars(histogram_png(CLASSES[name]))
    assert len(found) == sum(1 for c in counts if c)
    tallest = max(h for _, _, h in found)
    for (_, _, h), count in zip(found, [c for c in counts if c]):
        assert abs(h - tallest * count / max(counts)) <= 2, (found, counts)
    # where they stand: bin i's bar starts i bin-widths from the first bin's left edge
    width = (found[-1][1] - found[0][0] + 1) / (max(i for i, c in enumerate(counts) if c)
                                                 - min(i for i, c in enumerate(counts) if c) + 1)
    first = min(i for i, c in enumerate(counts) if c)
    for (left, _, _), i in zip(found, [i for i, c in enumerate(counts) if c]):
        assert abs(left - found[0][0] - (i - first) * width) <= 2


def test_is_each_bars_count_written_over_it():
    """Dark (text) pixels in the band just over each bar: its count, readable without the y axis."""
    png = histogram_png(CLASSES["a class of 200"])
    bottom, found = bars(png)
    px = Image.open(io.BytesIO(png)).convert("L").load()
    for left, right, h in found:
        top = bottom - 1 - h
        assert min(px[x, y] for x in range(left, right + 1) for y in range(top - 16, top)) < 100, (left, h)


def test_does_the_file_carry_its_title_and_nothing_that_changes_from_run_to_run():
    """Its title (Scores of N submission(s)) as the PNG's Title text, drawn at the top too; no tIME chunk, no
    software version."""
    png = histogram_png(CLASSES["a class of 200"])
    chunks = []
    at = 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks.append((kind, png[at + 8:at + 8 + length]))
        at += 12 + length
    texts = [data for kind, data in chunks if kind in (b"tEXt", b"iTXt", b"zTXt")]
    assert texts == [b"Title\x00Scores of 200 submission(s)"]
    assert b"tIME" not in {kind for kind, _ in chunks}
    image = Image.open(io.BytesIO(png))
    assert image.size == (600, 350) and image.format == "PNG"
    title_band = image.convert("L").crop((150, 0, 450, 30))
    assert title_band.getextrema()[0] < 100  # drawn: dark pixels where the title is


def test_are_the_colours_readable_by_wcag_aa():
    """Text at least 4.5:1 against the background, the bars and axes at least 3:1; and they are the colours drawn."""
    def luminance(colour):
        c = [v / 255 for v in rgb(colour)]
        r, g, b = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def contrast(a, b):
        hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    assert contrast(histogram.TEXT, histogram.BACKGROUND) >= 4.5
    assert contrast(histogram.BAR, histogram.BACKGROUND) >= 3 and contrast(histogram.AXIS, histogram.BACKGROUND) >= 3
    colours = {c: n for n, c in Image.open(io.BytesIO(histogram_png(CLASSES["a class of 200"]))).convert("RGB")
               .getcolors(1 << 16)}
    assert max(colours, key=colours.get) == rgb(histogram.BACKGROUND)
    assert {rgb(histogram.BAR), rgb(histogram.TEXT), rgb(histogram.AXIS)} <= set(colours)


def test_is_the_picture_the_same_bytes_in_every_process():
    """Two fresh interpreters (different hash seeds) draw the bytes this one draws."""
    code = ("import hashlib, json, sys\nfrom autograder.report.histogram import histogram_png\n"
            "print(hashlib.sha256(histogram_png(json.loads(sys.argv[1]))).hexdigest())")
    drawn = {subprocess.run([sys.executable, "-c", code, json.dumps(CLASSES["out of 2.5"])], cwd=REPO,
                            env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True,
                            check=True).stdout.strip() for seed in ("1", "2")}
    assert drawn == {hashlib.sha256(histogram_png(CLASSES["out of 2.5"])).hexdigest()}
