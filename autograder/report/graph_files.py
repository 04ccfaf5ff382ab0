"""`autograder check --graph DIR`: one picture per failing public case that has a graph.

DIR/<task>--<case>.svg, drawn by report/graph_svg.py; without graphviz, DIR/<task>--<case>.txt
with the same graph in words (and the reason said once, by the caller).
"""
from __future__ import annotations

from pathlib import Path

from autograder.files import write_bytes_atomic
from autograder.report import graph_svg
from autograder.report.model import Report


def write_graphs(report: Report, folder: Path) -> list[Path]:
    """The files written, one per failing public case with a graph (none for a passing report)."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn = graph_svg.missing() is None
    written = []
    for task in report.tasks:
        for case in task.cases:
            if case.graph is None or case.visibility != "public":
                continue
            name = case.id.replace("/", "--")
            title = f"{case.id}: {case.message}"
            picture = graph_svg.svg(case.graph, title) if drawn else None
            if picture is not None:
                path, text = folder / f"{name}.svg", picture + "\n"
            else:  # no graphviz here, or dot refused this one: the graph in words
                path, text = folder / f"{name}.txt", "\n".join([title, *graph_svg.text(case.graph)]) + "\n"
            write_bytes_atomic(path, text.encode("utf-8"))
            written.append(path)
    return written
