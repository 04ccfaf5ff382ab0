"""`python -m autograder.selfcheck`: do the reference and PyTorch agree on every worked example?

Both engines are trusted; a disagreement beyond rounding is a bug in the kit.
Exit codes: 0 they agree, 1 something disagrees, 2 torch is not installed.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from autograder.child.programs.worked import WORKED
from autograder.engines import reference_api, torch_api

REL_TOL = 1e-9
ABS_TOL = 1e-12


def agree(a: float, b: float) -> bool:
    """Equal up to float rounding; NaN and infinities never agree with anything."""
    return math.isfinite(a) and math.isfinite(b) and math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


@dataclass(frozen=True)
class Row:
    example: str
    quantity: str
    reference: float
    torch: float

    @property
    def diff(self) -> float:
        return abs(self.reference - self.torch)

    @property
    def ok(self) -> bool:
        return agree(self.reference, self.torch)


def flatten(obs: dict) -> dict[str, float]:
    """An observation dict with lists spread out as name[i], every value a float."""
    flat = {}
    for key, value in obs.items():
        if isinstance(value, (list, tuple)):
            flat.update({f"{key}[{i}]": float(v) for i, v in enumerate(value)})
        else:
            flat[key] = float(value)
    return flat


def run_selfcheck() -> list[Row]:
    """One row per quantity of every worked example, as computed by the reference and by torch."""
    ref, tor = reference_api(), torch_api()
    rows = []
    for name, program in WORKED.items():
        r, t = flatten(program(ref, {})), flatten(program(tor, {}))
        for quantity in [*r, *(q for q in t if q not in r)]:
            rows.append(Row(name, quantity, r.get(quantity, math.nan), t.get(quantity, math.nan)))
    return rows


def _table(rows: list[Row]) -> Table:
    table = Table(title="Worked examples: reference engine vs PyTorch (float64)")
    for header in ("example", "quantity", "reference", "torch", "|diff|", "ok"):
        table.add_column(header, justify="right" if header in ("reference", "torch", "|diff|") else "left")
    for row in rows:
        table.add_row(row.example.removeprefix("worked_"), row.quantity, f"{row.reference:.10g}", f"{row.torch:.10g}",
                      f"{row.diff:.1e}", "[green]yes[/green]" if row.ok else "[bold red]NO[/bold red]")
    return table


def main(argv: list[str] | None = None) -> int:
    console = Console()
    try:
        rows = run_selfcheck()
    except ImportError as err:
        print(f"selfcheck: {err}", file=sys.stderr)
        return 2
    console.print(_table(rows))
    bad = [row for row in rows if not row.ok]
    if bad:
        console.print(f"[bold red]{len(bad)} of {len(rows)} quantities disagree "
                      f"(beyond rel {REL_TOL:g} / abs {ABS_TOL:g}): a bug in the kit.[/bold red]")
        return 1
    console.print(f"[green]The reference and torch agree on all {len(rows)} quantities "
                  f"of {len(WORKED)} worked examples.[/green]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
