"""Is every hint the single-mistake variants are shown true of their code (issue 29)?

The corpus (variants.py), graded with the hidden cases (conftest's `graded`), each variant's failing
public cases with the hints they show. A hint is a claim about the code in front of it:
- one about `+=` (a grad replaced, `=`) only where the variant's code assigns a grad with `=`;
- one about reflected methods only where the variant took a reflected method out;
- one about `_prev` only where the variant changed what a node keeps as its children;
- one about a visited set only where the variant's backward() keeps none.
"""
from __future__ import annotations

import re

import pytest

import variants as corpus

pytestmark = pytest.mark.corpus

ASSIGNS = re.compile(r"\.grad = ")
# words of a hint -> does the variant's code make it true
CLAIMS = {
    "not replace it (=)": lambda v: bool(ASSIGNS.search(v.new)),
    "with =, the second": lambda v: bool(ASSIGNS.search(v.new)),
    "with += they add up": lambda v: bool(ASSIGNS.search(v.new)),
    "reflected method": lambda v: "def __r" in v.old and "def __r" not in v.new,
    "in _prev": lambda v: "_prev" in v.old + v.new or "(self, other)" in v.old,
    "visited set": lambda v: "visited" not in v.new,
}


def _shown(graded, v) -> list[str]:
    return [line for r in graded[v.id] for lines in (r.hints or {}).values() for line in lines]


def test_are_hints_shown_at_all(graded):
    """The claims below are asked of real hints: most variants whose task fails show some."""
    assert sum(bool(_shown(graded, v)) for v in corpus.VARIANTS) >= len(corpus.VARIANTS) // 3


@pytest.mark.parametrize("words", list(CLAIMS))
def test_does_a_hint_claim_only_what_the_variants_code_does(graded, words):
    untrue = {v.id: sorted({line[:90] for line in _shown(graded, v) if words in line})
              for v in corpus.VARIANTS if not CLAIMS[words](v)}
    assert not {name: lines for name, lines in untrue.items() if lines}


def test_is_the_plus_equals_hint_shown_where_the_variant_replaces_a_grad(graded):
    replacing = [v for v in corpus.VARIANTS if v.task in ("add", "mul") and ASSIGNS.search(v.new)]
    assert replacing and all(any("(+=)" in line or "+=" in line for line in _shown(graded, v)) for v in replacing)
