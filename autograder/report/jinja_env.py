"""The HTML pages' templates (report/templates/), compiled once per process, autoescape on.

Every {{ }} in a template is text, whatever a student's code put in it, with nothing in it that acts
(finalize: report/inert.py); the one filter that makes markup, `code`, escapes first.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from autograder.report.inert import inert

TEMPLATES = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=None)
def template(name: str):
    """A compiled page template, once per process (compiling one costs ~20 ms)."""
    import jinja2  # only the HTML pages need it

    env = _environment()(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        finalize=_inert,
    )
    env.filters["code"] = code_spans
    return env.get_template(name)


@lru_cache(maxsize=None)
def _environment():
    """jinja2.Environment, whose `x.name` on a plain dict (every view the pages get) reads the key at once: the
    same value jinja finds (a dict has no attribute by that name, so jinja's getattr falls back to the key), but
    without the AttributeError jinja raises and catches first each time (~40% of a feedback page's rendering)."""
    import jinja2  # only the HTML pages need it

    methods = frozenset(dir(dict))

    class Environment(jinja2.Environment):
        def getattr(self, obj, attribute):
            if type(obj) is dict and attribute not in methods:
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            return super().getattr(obj, attribute)

    return Environment


def _inert(value):
    """Every {{ }}'s text with nothing that acts in a page (bidi overrides, controls: report/inert.py);
    markup the kit made (a graph's SVG, `code` spans) is the kit's own."""
    if type(value) is str and value.isascii() and value.isprintable():  # most of a page: nothing can act
        return value
    import markupsafe

    return value if isinstance(value, markupsafe.Markup) or not isinstance(value, str) else inert(value)


def code_spans(text: str):
    """text escaped, its `backticked` parts as <code> (the kit's own sentences: the likely mistake)."""
    import markupsafe

    text = inert(text)
    parts = str(markupsafe.escape(text)).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: plain text
        return markupsafe.escape(text)
    return markupsafe.Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))
