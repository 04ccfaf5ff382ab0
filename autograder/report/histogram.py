"""The class's score histogram as a PNG: matplotlib's Agg canvas, no GUI, no global state.

Importing matplotlib costs ~0.45 s of CPU, ten times drawing one histogram: a class's batch has it
imported meanwhile, in a process of its own (batch/painter.py), which draws with this same function.
"""
from __future__ import annotations

import io

from autograder.report.numbers import show

# what the picture is drawn from: the rest of the summary does not change it
DRAWN_FROM = ("histogram", "max_score", "submissions")


def histogram_png(summary: dict) -> bytes:
    """summary["histogram"] as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    edges, counts = summary["histogram"]["edges"], summary["histogram"]["counts"]
    fig = Figure(figsize=(6, 3.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.bar(edges[:-1], counts, width=[b - a for a, b in zip(edges, edges[1:])], align="edge",
           color="#4285f4", edgecolor="white")
    ax.set_xlabel(f"score (out of {_fmt(summary['max_score'])})")
    ax.set_ylabel("submissions")
    ax.set_title(f"Scores of {summary['submissions']} submission(s)")
    ax.yaxis.get_major_locator().set_params(integer=True)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def import_matplotlib() -> None:
    """What histogram_png imports, ahead of drawing."""
    import matplotlib.backends.backend_agg  # noqa: F401
    import matplotlib.figure  # noqa: F401


def _fmt(x) -> str:
    return "–" if x is None else show(x)
