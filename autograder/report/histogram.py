"""The class's score histogram as a PNG, drawn with Pillow: 600x350 px, the same bytes on every run.

Bars over summary["histogram"]'s bins, each labelled with its count; the scores on x, the submissions on y
(whole-number ticks); the title says how many. The text is Pillow's own font (Aileron, built into Pillow,
anti-aliased by FreeType): no system font is looked for, so every machine the kit installs on has it. The
colours meet WCAG 2.1 AA on the white background: the text 15.9:1 (4.5:1 needed), the bars 4.7:1 and the
axes 7.5:1 (3:1 needed). Pillow's import and one drawing cost ~30 ms of CPU (benchmarks/bench_histogram.py;
matplotlib, which drew it before, ~460 ms): the grading process draws it with the class's other files.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache

from autograder.report.numbers import show

# what the picture is drawn from: the rest of the summary does not change it
DRAWN_FROM = ("histogram", "max_score", "submissions")

WIDTH, HEIGHT = 600, 350
BACKGROUND, TEXT, AXIS, GRID, BAR = "#ffffff", "#222222", "#555555", "#e4e4e4", "#2f6fdb"
TITLE_SIZE, LABEL_SIZE, TICK_SIZE = 18, 15, 14
PAD, TICK = 10, 4  # px: around the picture and between its parts; a tick mark's length


def histogram_png(summary: dict) -> bytes:
    """summary["histogram"] as PNG bytes."""
    from PIL import Image, ImageDraw, PngImagePlugin

    edges, counts = summary["histogram"]["edges"], summary["histogram"]["counts"]
    title = f"Scores of {summary['submissions']} submission(s)"
    x_label = "score" if summary["max_score"] is None else f"score (out of {show(summary['max_score'])})"
    x_top = edges[-1] or 1.0  # the bins start at 0 (summary_tally.histogram)
    x_ticks = _ticks(x_top, steps=(1, 2, 2.5, 5), most=8)
    y_top = max(max(counts, default=0), 1) * 1.1  # headroom for the count over the tallest bar
    y_ticks = _ticks(y_top, steps=(1, 2, 5), most=6, whole=True)
    y_top = max(y_top, y_ticks[-1])

    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title_font, label_font, tick_font = _font(TITLE_SIZE), _font(LABEL_SIZE), _font(TICK_SIZE)
    y_labels = [show(t) for t in y_ticks]

    # the plot's frame: what is left once the title, the labels and the tick labels have their room
    line = sum(tick_font.getmetrics())
    left = PAD + sum(label_font.getmetrics()) + PAD + max(tick_font.getlength(s) for s in y_labels) + TICK + 3
    right = WIDTH - PAD - tick_font.getlength(show(x_ticks[-1])) / 2
    top = PAD + sum(title_font.getmetrics()) + PAD + line  # and a line for the top bar's count
    bottom = HEIGHT - PAD - sum(label_font.getmetrics()) - PAD - line - TICK - 3
    left, right, top, bottom = round(left), round(right), round(top), round(bottom)
    inner_left, inner_right = left + 6, right - 6  # the bars clear the axis a little

    def px(x: float) -> int:
        return round(inner_left + x / x_top * (inner_right - inner_left))

    def py(y: float) -> int:
        return round(bottom - y / y_top * (bottom - top))

    for t, text in zip(y_ticks, y_labels):  # grid lines behind the bars, the ticks' labels at the left
        y = py(t)
        if t:
            draw.line([(left + 1, y), (right, y)], fill=GRID)
        draw.line([(left - TICK, y), (left, y)], fill=AXIS)
        _text(image, text, tick_font, (left - TICK - 3, y), "rm")
    for a, b, count in zip(edges, edges[1:], counts):
        if count:
            x0, x1, y = px(a), px(b), py(count)
            draw.rectangle([x0, y, x1, bottom], fill=BAR, outline=BACKGROUND)  # a white edge between bars
            if tick_font.getlength(str(count)) <= x1 - x0:
                _text(image, str(count), tick_font, ((x0 + x1) / 2, y - 2), "md")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=AXIS)
    for t in x_ticks:
        x = px(t)
        draw.line([(x, bottom), (x, bottom + TICK)], fill=AXIS)
        _text(image, show(t), tick_font, (x, bottom + TICK + 3), "mt")
    middle = (left + right) / 2
    _text(image, x_label, label_font, (middle, HEIGHT - PAD), "md")
    _text(image, title, title_font, (middle, PAD), "mt")
    _text(image, "submissions", label_font, (PAD, (top + bottom) / 2), "lm", upright=True)

    info = PngImagePlugin.PngInfo()
    info.add_text("Title", title)  # no time, no software version: the same bytes on every run
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def _ticks(top: float, *, steps: tuple, most: int, whole: bool = False) -> list[float]:
    """Round tick values over [0, top] (top > 0): the smallest step of `steps` x 10^k giving at most `most`
    intervals (for whole numbers, a whole step)."""
    for power in range(math.floor(math.log10(top / most)), 40):
        for step in steps:
            size = step * 10.0 ** power
            if (not whole or size >= 1 and size == int(size)) and top / size <= most + 1e-9:
                return [round(i * size, 10) for i in range(int(top / size + 1e-9) + 1)]
    return [0.0, top]


def ready() -> None:
    """Pillow imported and the fonts loaded (~30 ms of CPU), ahead of the drawing (batch/unchanged.py)."""
    for size in (TITLE_SIZE, LABEL_SIZE, TICK_SIZE):
        _font(size)


@lru_cache(maxsize=None)
def _font(size: int):
    """Pillow's own TrueType font at `size` px (FreeType, which Pillow's wheels and the distributions' builds have)."""
    from PIL import ImageFont
    return ImageFont.load_default(size)


def _text(image, text: str, font, at: tuple[float, float], anchor: str, upright: bool = False) -> None:
    """`text` in TEXT's colour, anchored at `at` as Pillow's anchors say (l/m/r, t/m/d: top, middle, bottom of
    the line); upright: read bottom to top. Its words 0.28 em apart: the font's own space is a fifth of one."""
    from PIL import Image, ImageDraw

    ascent, descent = font.getmetrics()
    words = text.split(" ")
    gap = font.size * 0.28
    mask = Image.new("L", (math.ceil(sum(map(font.getlength, words)) + gap * (len(words) - 1)), ascent + descent))
    draw, x = ImageDraw.Draw(mask), 0.0
    for word in words:
        draw.text((x, ascent), word, font=font, fill=255, anchor="ls")
        x += font.getlength(word) + gap
    if upright:
        mask = mask.transpose(Image.Transpose.ROTATE_90)
    across, down = {"l": 0, "m": 0.5, "r": 1}[anchor[0]], {"t": 0, "m": 0.5, "d": 1}[anchor[1]]
    image.paste(TEXT, (round(at[0] - across * mask.width), round(at[1] - down * mask.height)), mask)
