"""rich's markup read without rich: the text it shows, its runs and their styles as rich writes them.

`escape` and the reading of markup are rich's own (rich.markup.escape and _parse, under the MIT licence: its notice is below),
so that text a student wrote reads back as rich shows it, markup-like brackets and backslashes included. The styles are those
the terminal report uses (bold, dim, the standard colours); any other is DoesNotFit: rich's to write.
"""
# Copyright (c) 2020 Will McGugan
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.
from __future__ import annotations

import re

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
    return "".join(text for text, _ in runs(markup))


def runs(markup: str) -> list[tuple[str, tuple[str, ...]]]:
    """rich's markup read as rich.markup.render reads it: its text in runs, each with the tags open over it
    (innermost last); a run ends at every tag, as a span of rich's Text does."""
    if "[" not in markup:
        return [(markup, ())]
    out, open_tags, position = [], [], 0

    def add(text: str) -> None:
        if out and out[-1][1] == tuple(open_tags) and out[-1][2] == len(tags_seen):
            out[-1][0] += text
        else:
            out.append([text, tuple(open_tags), len(tags_seen)])

    tags_seen: list[str] = []
    for match in _TAGS.finditer(markup):
        full, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            add(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            add("\\" * backslashes)
            if escaped:
                add(full[len(escapes):].replace("\\[", "["))
                continue
        tags_seen.append(tag)
        if tag.startswith("/"):
            name = tag[1:].strip()
            if not open_tags or (name and name not in open_tags):
                raise DoesNotFit(f"markup rich refuses: [{tag}]")
            open_tags.pop(len(open_tags) - 1 - open_tags[::-1].index(name) if name else -1)
        else:
            open_tags.append(tag)
    if position < len(markup):
        add(markup[position:].replace("\\[", "["))
    return [(text, tags) for text, tags, _ in out if text]


ATTRIBUTES = {"bold": 1, "dim": 2}
COLOURS = {"black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37}


def codes(tags: tuple[str, ...]) -> str:
    """The SGR codes rich writes for these styles combined (rich.style.Style: attributes in order, then the last
    colour), "" for none; DoesNotFit for a style other than a standard colour, bold and dim."""
    attributes, colour = set(), None
    for word in " ".join(tags).split():
        if word in ATTRIBUTES:
            attributes.add(ATTRIBUTES[word])
        elif word in COLOURS:
            colour = COLOURS[word]
        else:
            raise DoesNotFit(f"a style rich writes: {word}")
    return ";".join(map(str, sorted(attributes) + ([colour] if colour else [])))
