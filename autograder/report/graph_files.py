"""`autograder check --graph DIR`: one picture per failing public case that has a graph.

DIR/<task>--<case>.svg, drawn by report/graph_svg.py to fit a window 1280 px wide (where only a part
of a big graph fits, the whole graph in words beside it, DIR/<task>--<case>.txt), named for a screen reader
(role="img" and a <title>: the case, its message, the first wrong step in words); without graphviz,
the .txt alone (and the reason said once, by the caller).
"""
from __future__ import annotations

from pathlib import Path

from autograder.files import write_bytes_atomic
from autograder.report import graph_fit, graph_svg, graph_twin
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
            picture = graph_svg.pictures([(case.graph, title)], graph_fit.FILE_PX)[0] if drawn else None
            words = "\n".join([title, *graph_svg.text(case.graph)]) + "\n"
            files = [(folder / f"{name}.txt", words)]  # no graphviz here, or dot refused this one: in words
            if picture is not None:  # and beside a part of the graph, the whole graph in words
                named = graph_twin.labelled(picture.svg, "graph", f"{title}. {graph_twin.said(case.graph)}")
                files = [(folder / f"{name}.svg", named + "\n")] + (files if picture.part else [])
            for path, text in files:
                write_bytes_atomic(path, text.encode("utf-8"))
                written.append(path)
    return written
