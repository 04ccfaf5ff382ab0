"""Text that came from a submission, made inert where it is shown: a terminal, a CSV, a page, an LMS file.

A file name in a zip, a notebook's kernelspec, an exception message or a line the student's code
printed can hold control characters that act where they land: ESC and the C1 controls start
terminal sequences (OSC 52 writes the clipboard, CSI 2J clears the screen), a carriage return or
backspace overwrites what was printed, the bidirectional overrides and isolates reorder what a
reader sees (a "Trojan Source" line), and a lone surrogate is no text at all (printing it raises).
Each becomes its escape, legible and acting nowhere: ESC -> `\\x1b`, U+202E -> `\\u202e`. Tabs and
newlines stay. `inert_json` writes the same characters as JSON's own escapes, so a JSON document
keeps its exact values.
"""
from __future__ import annotations

import functools
import re

_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0))
_FORMATTING = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]  # bidi marks, embeddings,
_SURROGATES = list(range(0xD800, 0xE000))                                              # overrides, isolates
ACTING = frozenset(_CONTROLS + _FORMATTING + _SURROGATES)


@functools.lru_cache(maxsize=None)
def _tables() -> tuple[dict[int, str], dict[int, str]]:
    """The translations of ACTING (shown, JSON), made the first time a text needs one (most never do)."""
    shown = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in ACTING}
    return shown, {c: f"\\u{c:04x}" for c in ACTING if c not in (0x09, 0x0A)}


# one search in C over the text finds whether any of them is there (a per-character loop in Python cost
# ~7 ms over a report's JSON): a class of ACTING's runs of consecutive code points


def _runs(codes: frozenset[int]) -> str:
    runs: list[list[int]] = []
    for c in sorted(codes):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(f"\\u{a:04x}-\\u{b:04x}" if a != b else f"\\u{a:04x}" for a, b in runs)


_ACTING_RE = re.compile(f"[{_runs(ACTING)}]")


def inert(text: str) -> str:
    """text with every character that acts on a terminal or a reader written as its escape."""
    text = str(text)
    return text.translate(_tables()[0]) if _acts(text) else text


def inert_json(document: str) -> str:
    """A JSON document (json.dumps) with those characters as \\uXXXX escapes: the same values, inert."""
    return document.translate(_tables()[1]) if _acts(document) else document


def _acts(text: str) -> bool:
    return not (text.isascii() and text.isprintable()) and _ACTING_RE.search(text) is not None
