"""The HTML pages' templates (report/templates/), compiled once per process, autoescape on.

Every {{ }} in a template is text, whatever a student's code put in it; the one filter that makes
markup, `code`, escapes first.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=None)
def template(name: str):
    """A compiled page template, once per process (compiling one costs ~20 ms)."""
    import jinja2  # only the HTML pages need it

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["code"] = code_spans
    return env.get_template(name)


def code_spans(text: str):
    """text escaped, its `backticked` parts as <code> (the kit's own sentences: the likely mistake)."""
    import markupsafe

    parts = str(markupsafe.escape(text)).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: plain text
        return markupsafe.escape(text)
    return markupsafe.Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))
