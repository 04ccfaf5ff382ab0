"""How a score is shown to people: at most 2 decimals, no trailing zeros.

    show(94.2307692) -> "94.23"    show(12.0) -> "12"    show(2.5) -> "2.5"    show(3.125) -> "3.13"

The one place the gradebook, the feedback pages, summary.md and the terminal
round a number for display (half up, as people do, on the number as it prints).
The JSON reports and summary.json keep their precision.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache

_CENTS = Decimal("0.01")


@lru_cache(maxsize=4096)  # a class's gradebook shows the same few scores many times
def show(x: float) -> str:
    """A score for display: rounded to 2 decimals, trailing zeros (and a bare point) dropped."""
    try:
        rounded = Decimal(repr(float(x))).quantize(_CENTS, rounding=ROUND_HALF_UP)
    except InvalidOperation:  # inf, nan: as Python prints them
        return str(float(x))
    text = f"{rounded:f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
