"""The terminal report written without rich, byte for byte as rich writes it, where rich's layout is simple.

rich costs a check about 15 ms of CPU to import and 5 ms to lay out its report (a check takes about 0.1 s of
CPU). Its layout of this report is simple: off a terminal (a pipe, a file, an IDE's run pane) the markup's text
wrapped at spaces to rich's width (`mode_here`), on a terminal the same with rich's SGR codes around each
styled segment (bold, dim, standard colours: the same codes in every colour system), and the summary table's
columns padded as rich pads them (box=None, pad_edge=False: two spaces between columns, score and cases
right-aligned; a table too wide has its last column, the task's title, narrowed and wrapped). `PlainConsole`
writes exactly that, and stops with `DoesNotFit` wherever rich's layout takes more: a word wider than the width
(rich cuts it), a table whose other columns would narrow, a cell of several lines, a character outside printable
ASCII and the report's own ✓ ✗ … — (a tab, which rich expands; a wide character, whose width rich counts), a
style or renderable it doesn't write, and FORCE_COLOR, TTY_COMPATIBLE, TTY_INTERACTIVE, NO_COLOR, a dumb terminal.
The report is then written by rich. tests/report/test_terminal_plain.py compares the two on generated and graded
reports at eight widths (20 to 200 columns) in every colour system, and the student's command end to end on a
pipe and a terminal.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from autograder.report.terminal_markup import DoesNotFit, codes, runs

SAFE = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("✓✗…—\n")
WIDTH = 80  # rich's width where it finds no terminal and no $COLUMNS
MIN_WIDTH = 20


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = False  # right-aligned (rich's justify="right")
    style: str = ""      # rich's style of the column's cells (on a terminal)


@dataclass(frozen=True)
class Rows:
    """A table as the report's summary has it: its columns, and its rows of markup."""
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]


Segment = tuple[str, str]  # text, and its SGR codes ("": none)


def mode_here() -> tuple[int, bool] | None:
    """(the width rich takes for stdout here, whether it writes colour), or None where rich may write otherwise
    than plain or coloured text the way PlainConsole writes it (FORCE_COLOR, TTY_COMPATIBLE, TTY_INTERACTIVE,
    NO_COLOR, a dumb terminal, a notebook) or at a width too narrow to be worth the care. The width is
    rich.console.Console.size's: $COLUMNS, else the size of the first of stdin, stdout and stderr that is a
    terminal, else 80; the colour its is_terminal's: stdout a terminal."""
    out = sys.stdout
    if out is None or "IPython" in sys.modules or any(os.environ.get(v) is not None for v in (
            "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR")):
        return None
    try:
        colour = out.isatty()
    except (AttributeError, ValueError):
        return None
    if (getattr(out, "encoding", None) or "").lower().replace("-", "") != "utf8":
        return None  # rich says what to set where the report's ✓ can't be written
    if colour and os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    else:
        width = WIDTH
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd).columns or WIDTH
            except (OSError, ValueError):
                continue
            break
    return (width, colour) if width >= MIN_WIDTH else None


class PlainConsole:
    """What print_report asks of rich's Console (print), written as rich writes it, plain off a terminal or with
    rich's SGR codes on one; DoesNotFit where rich's layout takes more."""

    def __init__(self, width: int, colour: bool = False):
        self.width, self.colour, self.lines = width, colour, []

    def print(self, what: str | Rows = "", *, soft_wrap: bool = False, highlight: bool | None = None, **other) -> None:
        """As rich's Console.print writes it: a table laid out, text wrapped at spaces to the width (soft_wrap: not
        wrapped), whitespace past the width dropped at a line's end. Anything else rich can print (another
        renderable, a style, end=...) is rich's to write: DoesNotFit."""
        if other or not isinstance(what, (str, Rows)):
            raise DoesNotFit(f"rich's own: {type(what).__name__}, {sorted(other)}")
        if isinstance(what, Rows):
            lines = self._table(what)
        else:
            lines = []
            for line in _split_lines([(text, codes(tags), bool(tags)) for text, tags in runs(what)]):
                text = "".join(t for t, _, _ in line)
                ends = [len(_rstrip_end(text, self.width))] if soft_wrap else None
                lines += [[(t, c) for t, c, _ in part] for part in _cut(line, *_breaks(text, self.width, ends))]
        for line in lines:
            for text, _ in line:
                if not SAFE.issuperset(text):
                    raise DoesNotFit(text)
        self.lines += lines

    def _table(self, table: Rows) -> list[list[Segment]]:
        """The table as rich lays it out (box=None, pad_edge=False): each column as wide as its widest cell, one
        space of padding inside each edge between columns; where that is wider than the console, the last column
        (the widest, the task's title) narrowed by the excess and its cells wrapped at their spaces, as rich's
        _collapse_widths and Text.wrap do; any other narrowing (another column, a word cut) is left to rich. On a
        terminal: the header bold, each column's style over its cells and their padding, as rich's segments."""
        header = [[(c.header, (), False)] for c in table.columns]
        body = [[[(t, codes(tags), bool(tags)) for t, tags in runs(cell)] for cell in row] for row in table.rows]
        texts = [["".join(t for t, _, _ in cell) for cell in row] for row in [header] + body]
        if any("\n" in cell for row in texts for cell in row):
            raise DoesNotFit("a cell of several lines")
        last = len(table.columns) - 1
        pads = [(1 if i else 0) + (1 if i < last else 0) for i in range(last + 1)]
        widths = [max(len(row[i]) for row in texts) + pads[i] for i in range(last + 1)]
        excess = sum(widths) - self.width
        if excess > 0:
            if widths[last] - max(widths[:last], default=0) < excess:  # rich would narrow another column, or several
                raise DoesNotFit("a table too wide for its last column alone to narrow")
            widths[last] -= excess
        lines = []
        for n, (row, row_texts) in enumerate(zip([header] + body, texts)):
            bases = [codes(("bold",)) if n == 0 else codes((c.style,) if c.style else ()) for c in table.columns]
            cells = []
            for i, (cell, text, column) in enumerate(zip(row, row_texts, table.columns)):
                inner = widths[i] - pads[i]
                parts = _cut(cell, *_breaks(text, inner)) if i == last else [cell]
                cells.append([_padded(part, inner, column.right, bases[i], i > 0, i < last)
                              for part in parts])
            for k in range(max(map(len, cells))):
                lines.append([seg for i, cell in enumerate(cells)
                              for seg in (cell[k] if k < len(cell) else [(" " * widths[i], bases[i])])])
        return lines

    def __getattr__(self, name: str):
        """Any other of rich's Console's methods (a rule, a log line) is rich's to write."""
        raise DoesNotFit(f"rich's Console.{name}")

    def text(self) -> str:
        """What rich writes: each segment, with its SGR codes around it on a terminal; a newline after each line."""
        show = (lambda t, c: f"\x1b[{c}m{t}\x1b[0m" if c else t) if self.colour else (lambda t, c: t)
        return "".join("".join(show(t, c) for t, c in line if t) + "\n" for line in self.lines)


Run = tuple[str, str, bool]  # text, its SGR codes, whether a tag is open over it (a span of rich's Text)


def _split_lines(line: list[Run]) -> list[list[Run]]:
    """Runs split at their newlines: one list of runs a line."""
    lines: list[list[Run]] = [[]]
    for text, sgr, spanned in line:
        for n, piece in enumerate(text.split("\n")):
            if n:
                lines.append([])
            if piece:
                lines[-1].append((piece, sgr, spanned))
    return lines


def _cut(line: list[Run], starts: list[int], ends: list[int]) -> list[list[Run]]:
    """The runs of each part text[start:end] of a line, cut where the parts begin and end."""
    parts = []
    for start, end in zip(starts, ends):
        part, offset = [], 0
        for text, sgr, spanned in line:
            a, b = max(start, offset), min(end, offset + len(text))
            if a < b:
                part.append((text[a - offset:b - offset], sgr, spanned))
            offset += len(text)
        parts.append(part)
    return parts


_WORDS = re.compile(r"\s*\S+\s*")


def _breaks(text: str, width: int, ends: list[int] | None = None) -> tuple[list[int], list[int]]:
    """Where each line of text begins and ends: broken before words as rich's divide_line breaks it where no word
    is wider than the width (rich cuts such a word: DoesNotFit), each line's whitespace past the width dropped
    (rich's Text.rstrip_end). `ends` given: one line, ending there."""
    if ends is not None:
        return [0], ends
    breaks, offset = [], 0
    for match in _WORDS.finditer(text):
        start, word = match.start(), match.group()
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            raise DoesNotFit("a word wider than the width: rich cuts it")
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    starts = [0] + breaks
    return starts, [a + len(_rstrip_end(text[a:b], width)) for a, b in zip(starts, breaks + [len(text)])]


def _rstrip_end(line: str, width: int) -> str:
    """rich's Text.rstrip_end: the whitespace at the end of a line longer than the width, up to the excess, dropped."""
    excess = len(line) - width
    if excess <= 0:
        return line
    kept = line.rstrip()
    return line[:len(line) - min(len(line) - len(kept), excess)]


def _padded(part: list[Run], width: int, right: bool, base: str, left_pad: bool, right_pad: bool) -> list[Segment]:
    """One line of a table's cell as rich's segments: its padding spaces each a segment, the text justified (the
    spaces joining the run beside them unless a tag is open over it), the cell's style over all of it."""
    fill = width - sum(len(t) for t, _, _ in part)
    runs_ = list(part)
    if fill:
        edge = 0 if right else len(runs_) - 1
        if runs_ and not runs_[edge][2]:
            text, sgr, spanned = runs_[edge]
            runs_[edge] = ((" " * fill + text) if right else (text + " " * fill), sgr, spanned)
        else:
            runs_.insert(0 if right else len(runs_), (" " * fill, "", False))
    cell = [(text, _joined(base, sgr)) for text, sgr, _ in runs_]
    return [(" ", base)] * left_pad + cell + [(" ", base)] * right_pad


def _joined(base: str, sgr: str) -> str:
    """The codes of a cell's style with a run's own over it (attributes joined, the run's colour kept)."""
    if not base or not sgr:
        return base or sgr
    words = set(base.split(";")) | set(sgr.split(";"))
    colours = [w for w in sgr.split(";") if int(w) >= 30] or [w for w in base.split(";") if int(w) >= 30]
    return ";".join(sorted((w for w in words if int(w) < 30), key=int) + colours[-1:])
