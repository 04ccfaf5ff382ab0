"""One grade as an LMS column wants it: points on the column's scale, or a percentage; rounded as shown."""
from __future__ import annotations

from dataclasses import dataclass

from autograder.lms.graded import Graded, LmsError


@dataclass(frozen=True)
class Scale:
    out_of: float | None      # the LMS column's points possible (None: the kit's own points)
    percent: bool = False     # a percentage instead of points
    late_penalty: float = 0.0  # percent taken off a late submission's grade (0: flagged only)

    def value(self, g: Graded) -> float:
        share = g.score / g.max_score if g.max_score else 0.0
        if g.late and self.late_penalty:
            share *= 1.0 - self.late_penalty / 100.0
        if self.percent:
            return 100.0 * share
        return share * (self.out_of if self.out_of is not None else g.max_score)


def two_places(x: float) -> str:
    """At most two decimals, no trailing zeros: 8.5, 8, 8.33 (as Canvas shows points)."""
    text = f"{round(x, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def parse_number(cell: str) -> float | None:
    try:
        return float(cell.strip().replace(",", "")) if cell.strip() else None
    except ValueError:
        return None


def check_late_penalty(percent: float) -> float:
    if not 0 <= percent <= 100:
        raise LmsError(f"--late-penalty must be a percentage between 0 and 100, not {percent:g}")
    return percent


def late_and_ungraded(students: list[Graded], late_penalty: float) -> list[str]:
    """The lines every LMS command prints about what it wrote: who was late (and what that cost), and
    who could not be graded."""
    lines = []
    late = [g.student for g in students if g.late]
    if late:
        how = (f"{late_penalty:g}% taken off" if late_penalty
               else "flagged, not penalised; --late-penalty PERCENT takes points off")
        lines.append(f"late ({how}): {', '.join(late)}")
    errors = [g.student for g in students if g.status == "error"]
    if errors:
        lines.append(f"could not be graded (their grade is what the report says, usually 0: read it): {', '.join(errors)}")
    return lines
