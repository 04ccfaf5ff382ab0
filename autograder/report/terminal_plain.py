"""The terminal report written without rich where rich would write plain text: off a terminal.

rich costs a check about 15 ms of CPU to import and 5 ms to lay out its report (a check takes about 0.1 s of
CPU). Off a terminal (a pipe, a file, an IDE's run pane, a benchmark), without FORCE_COLOR, TTY_COMPATIBLE or
TTY_INTERACTIVE, rich writes no colour: the report is the markup's text, wrapped at spaces to the width rich takes
there (`width_here`), and the summary table's columns padded as rich pads them (box=None, pad_edge=False: two
spaces between columns, score and cases right-aligned; a table too wide has its last column, the task's title,
narrowed and wrapped). `PlainConsole` writes exactly that, and stops with `DoesNotFit` wherever rich's layout
takes more than that: a word wider than the width (rich cuts it), a table whose other columns would narrow, a
cell of several lines, a character outside printable ASCII and the report's own ✓ ✗ … — (a tab, which rich
expands; a wide character, whose width rich counts). The report is then written by rich, as on a terminal,
where it always is. tests/report/test_terminal_plain.py compares the two on generated and graded reports at
several widths.

`escape` and the reading of markup are rich's own (rich.markup.escape and _parse, MIT licence), so that text a
student wrote reads back as it was, markup-like brackets and backslashes included.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

SAFE = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("✓✗…—\n")
WIDTH = 80  # rich's width where it finds no terminal and no $COLUMNS
MIN_WIDTH = 20
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])").sub
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")


class DoesNotFit(Exception):
    """Rich might write this report otherwise than as plain lines: let rich write it."""


def escape(markup: str) -> str:
    """Text made literal in rich's markup (rich.markup.escape)."""
    markup = _ESCAPE(lambda m: f"{m[1]}{m[1]}\\{m[2]}", markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def plain(markup: str) -> str:
    """The text rich's markup shows (rich.markup.render's text, its tags dropped)."""
    if "[" not in markup:
        return markup
    parts, position = [], 0
    for match in _TAGS.finditer(markup):
        full, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            parts.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            parts.append("\\" * backslashes)
            if escaped:
                parts.append(full[len(escapes):].replace("\\[", "["))
    if position < len(markup):
        parts.append(markup[position:].replace("\\[", "["))
    return "".join(parts)


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = False  # right-aligned (rich's justify="right")


@dataclass(frozen=True)
class Rows:
    """A table as the report's summary has it: its columns, and its rows of markup."""
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]


def width_here() -> int | None:
    """The width rich takes for stdout here (rich.console.Console.size: $COLUMNS, else the size of the first of
    stdin, stdout and stderr that is a terminal, else 80), or None where rich may write more than plain text (stdout
    a terminal, colour forced, a notebook) or at a width too narrow to be worth the care."""
    out = sys.stdout
    if out is None or "IPython" in sys.modules or any(os.environ.get(v) is not None
                                                      for v in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")):
        return None
    try:
        if out.isatty():
            return None
    except (AttributeError, ValueError):
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
    return width if width >= MIN_WIDTH else None


class PlainConsole:
    """What print_report asks of rich's Console (print), written as plain lines; DoesNotFit where it can't be."""

    def __init__(self, width: int):
        self.width, self.lines = width, []

    def print(self, what: str | Rows = "", *, soft_wrap: bool = False, highlight: bool | None = None, **other) -> None:
        """As rich's Console.print writes it off a terminal: a table laid out, text wrapped at spaces to the width
        (soft_wrap: not wrapped), whitespace past the width dropped at a line's end. Anything else rich can
        print (another renderable, a style, end=...) is rich's to write: DoesNotFit."""
        if other or not isinstance(what, (str, Rows)):
            raise DoesNotFit(f"rich's own: {type(what).__name__}, {sorted(other)}")
        if isinstance(what, Rows):
            lines = self._table(what).split("\n")
        else:
            lines = [part for line in plain(what).split("\n")
                     for part in ([_rstrip_end(line, self.width)] if soft_wrap else _wrap(line, self.width))]
        for line in lines:
            if not SAFE.issuperset(line):
                raise DoesNotFit(line)
        self.lines += lines

    def _table(self, table: Rows) -> str:
        """The table as rich lays it out (box=None, pad_edge=False): each column as wide as its widest cell, one
        space of padding inside each edge between columns; where that is wider than the console, the last column
        (the widest, the task's title) narrowed by the excess and its cells wrapped at their spaces, as rich's
        _collapse_widths and Text.wrap do; any other narrowing (another column, a word cut) is left to rich."""
        cells = [[c.header for c in table.columns]] + [[plain(cell) for cell in row] for row in table.rows]
        if any("\n" in cell for row in cells for cell in row):
            raise DoesNotFit("a cell of several lines")
        last = len(table.columns) - 1
        pads = [(1 if i else 0) + (1 if i < last else 0) for i in range(last + 1)]
        widths = [max(len(row[i]) for row in cells) + pads[i] for i in range(last + 1)]
        excess = sum(widths) - self.width
        if excess > 0:
            others = max(widths[:last], default=0)
            if widths[last] - others < excess:  # rich would narrow another column, or several
                raise DoesNotFit("a table too wide for its last column alone to narrow")
            widths[last] -= excess
        inner = [w - p for w, p in zip(widths, pads)]
        lines = []
        for row in cells:
            wrapped = _wrap(row[last], inner[last])
            head = "".join((" " if i else "") + (cell.rjust(w) if column.right else cell.ljust(w)) + " "
                           for i, (cell, w, column) in enumerate(zip(row[:last], inner, table.columns)))
            blank = " " * len(head)
            lines += [(blank if n else head) + " " + text.ljust(inner[last]) for n, text in enumerate(wrapped)]
        return "\n".join(lines)

    def __getattr__(self, name: str):
        """Any other of rich's Console's methods (a rule, a log line) is rich's to write."""
        raise DoesNotFit(f"rich's Console.{name}")

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


_WORDS = re.compile(r"\s*\S+\s*")


def _wrap(text: str, width: int) -> list[str]:
    """text in lines of at most `width`, broken before words as rich's divide_line breaks it where no word is wider
    than the width (rich cuts such a word: DoesNotFit), each line's whitespace past the width dropped."""
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
    return [_rstrip_end(text[a:b], width) for a, b in zip([0] + breaks, breaks + [len(text)])]


def _rstrip_end(line: str, width: int) -> str:
    """rich's Text.rstrip_end: the whitespace at the end of a line longer than the width, up to the excess, dropped."""
    excess = len(line) - width
    if excess <= 0:
        return line
    kept = line.rstrip()
    return line[:len(line) - min(len(line) - len(kept), excess)]
