"""A task's score as parts a tool can add up, so that otter's question score is the kit's task score.

otter scores a question as the sum of the points of its tests that pass, each test's points fixed
when `otter assign` runs. The kit scores a task points * passed / counted, and counted is not fixed:
an end-to-end case failing while backward() fails its own cases is charged to backward(), not
counted here (Case.needs), so counted is one of own .. own + end_to_end. No fixed points per case
give every such score; parts do:

- the unit is points / L, L the least common multiple of those possible counts (`denomination`),
  so every score the kit can give is a whole number of units, U = passed * L / counted;
- the parts are worth 1, 2, 4, ..., 2**(b-1) units and a remainder r = L - (2**b - 1), b the largest
  with 2**b - 1 <= L (`parts`): they sum to L, the task's points, and every U in 0..L is a sum of
  some of them: the binary digits of U, or r and the binary digits of U - r (`paid`).

The otter edition gives each case a test worth 0 (its pass or fail is what the student reads) and
each part a hidden test worth points * part / L that passes when the kit's score holds it.
"""
from __future__ import annotations

import math


def denomination(own: int, end_to_end: int) -> int:
    """L: every count of cases the kit may score the task over (own .. own + end_to_end) divides it."""
    return math.lcm(*range(max(own, 1), own + end_to_end + 1))


def parts(total: int) -> tuple[int, ...]:
    """The parts of `total` units: 1, 2, 4, ... and the remainder (left out when 0)."""
    b, rest = _split(total)
    return tuple(2 ** i for i in range(b)) + ((rest,) if rest else ())


def paid(total: int, units: int) -> tuple[bool, ...]:
    """Which of parts(total) make up `units` (0 <= units <= total), in the parts' order."""
    if not 0 <= units <= total:
        raise ValueError(f"{units} units is not a score out of {total}")
    b, rest = _split(total)
    with_rest = units > 2 ** b - 1            # then 0 <= units - rest <= 2**b - 1
    binary = units - rest if with_rest else units
    return tuple(bool(binary >> i & 1) for i in range(b)) + ((with_rest,) if rest else ())


def _split(total: int) -> tuple[int, int]:
    """(b, r): b the largest with 2**b - 1 <= total, r = total - (2**b - 1)."""
    b = (total + 1).bit_length() - 1
    return b, total - (2 ** b - 1)


def units(passed: int, counted: int, total: int) -> int | None:
    """The score passed / counted of a task, in units of 1 / total; None when it is not a whole number
    of them (the parts were made for other cases: another kit's tests)."""
    if counted <= 0:
        return 0
    whole, left = divmod(passed * total, counted)
    return None if left else whole
