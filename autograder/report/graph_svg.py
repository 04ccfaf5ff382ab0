"""The picture of a failing case's graph, as micrograd's draw_dot draws it, made with graphviz.

One box per node (its name, data and grad), the operation that made it in an oval between
its children and it. Where the student's number differs from the right one the box says both,
and it is marked in red: the nodes a student should look at first. The picture needs the
`graphviz` Python package and its `dot` program (Debian: apt-get install graphviz); without
them `svg` returns None, `missing()` says why in one line, and `text` is the same graph in words.
"""
from __future__ import annotations

import importlib.util
import re
import shutil
from html import escape

from autograder.cases.common import fmt
from autograder.report.model import CaseGraph, GraphNode

WRONG_FILL, WRONG_INK = "#fde2e1", "#b3261e"   # a wrong number: its cell, its text
BOX_INK, OP_FILL = "#3c4043", "#eef3fd"


def missing() -> str | None:
    """Why no picture can be drawn here, in one line; None when graphviz is ready."""
    if importlib.util.find_spec("graphviz") is None:
        return "the graphviz Python package is not installed (pip install graphviz): the graphs are shown as text"
    if shutil.which("dot") is None:
        return ("graphviz's `dot` program is not installed (Debian/Ubuntu: apt-get install graphviz; "
                "macOS: brew install graphviz): the graphs are shown as text")
    return None


def svg(graph: CaseGraph, title: str = "") -> str | None:
    """The graph as an inline <svg> element (no XML prolog), or None without graphviz."""
    return svgs([(graph, title)])[0]


def svgs(graphs: list[tuple[CaseGraph, str]]) -> list[str | None]:
    """Many pictures (graph, title) at once: one run of dot for all those not drawn before in this
    process (a page's pictures; starting dot costs more than drawing a small graph). None each
    without graphviz."""
    if missing():
        return [None] * len(graphs)
    if len(_DRAWN) > 512:  # a long batch: keep memory flat
        _DRAWN.clear()
    sources = [source(graph, title) for graph, title in graphs]
    new = list(dict.fromkeys(s for s in sources if s not in _DRAWN))
    if new:
        drawn = _dot(new)
        if drawn is None:  # dot refused one of them: each on its own, a refused one shows as text
            drawn = [(_dot([src]) or [None])[0] for src in new]
        _DRAWN.update(zip(new, drawn))
    return [_DRAWN[s] for s in sources]


def _dot(sources: list[str]) -> list[str] | None:
    """dot's SVG of each source, in one run; None if dot failed."""
    import graphviz

    try:
        out = graphviz.Source("\n".join(sources)).pipe(format="svg", encoding="utf-8")
    except graphviz.CalledProcessError:
        return None
    drawn = [part[part.index("<svg"):] + "</svg>" for part in out.split("</svg>")[:-1]]
    return drawn if len(drawn) == len(sources) else None


# dot source -> its SVG (None: dot refused it): the same wrong graph recurs across a class, drawn once a process
_DRAWN: dict[str, str | None] = {}


def source(graph: CaseGraph, title: str = "") -> str:
    """The dot source of the picture."""
    import graphviz

    title = "".join(c if c.isprintable() else " " for c in title)  # dot takes no control characters
    g = graphviz.Digraph(graph_attr={"rankdir": "LR", "bgcolor": "transparent", "label": title,
                                     "labelloc": "t", "fontname": "Helvetica", "fontsize": "12"},
                         node_attr={"fontname": "Helvetica", "fontsize": "11"},
                         edge_attr={"color": "#80868b", "arrowsize": "0.6"})
    for node in graph.nodes:
        g.node(node.name, label=f"<{_table(node)}>", shape="plaintext")
        if node.op:
            op = f"{node.name}.op"
            g.node(op, label=node.op, shape="ellipse", style="filled", fillcolor=OP_FILL, color="#aecbfa")
            g.edge(op, node.name)
            for child in node.children:
                g.edge(child, op)
    return g.source


def _table(node: GraphNode) -> str:
    rows = [_cell(escape(node.name), bold=True),
            _cell(_value("data", node.data_got if node.wrong_data else node.data, node.data, node.wrong_data),
                  wrong=node.wrong_data)]
    if node.expected is not None:
        rows.append(_cell(_value("grad", node.grad, node.expected, node.wrong_grad), wrong=node.wrong_grad))
    border = WRONG_INK if node.wrong else BOX_INK
    return (f'<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="4" COLOR="{border}">'
            f'<TR>{"".join(rows)}</TR></TABLE>')


def _cell(text: str, *, bold: bool = False, wrong: bool = False) -> str:
    if bold:
        text = f"<B>{text}</B>"
    if wrong:
        return f'<TD BGCOLOR="{WRONG_FILL}"><FONT COLOR="{WRONG_INK}">{text}</FONT></TD>'
    return f"<TD>{text}</TD>"


def _value(what: str, got, expected, wrong: bool) -> str:
    if not wrong:
        return f"{what} {_num(expected)}"
    return escape(f"{what} {_num(got)} (expected {_num(expected)})")


def _num(x) -> str:
    return "nothing" if x is None else (f"{x:.4f}" if abs(x) < 1e5 else fmt(x))


def width_px(svg_text: str) -> float:
    """The picture's width in CSS pixels (dot writes points), from the <svg> element's width."""
    found = re.search(r'<svg[^>]*\swidth="([\d.]+)(pt|px)?"', svg_text)
    if not found:
        return 0.0
    return float(found.group(1)) * (4 / 3 if found.group(2) in (None, "pt") else 1.0)


def text(graph: CaseGraph) -> list[str]:
    """The graph in words, one line per node: what `svg` draws, for where it can't."""
    lines = []
    for node in graph.nodes:
        made = f" = {node.op}({', '.join(node.children)})" if node.op else " (a leaf)"
        if node.note == "mix":
            made = f" = {node.op}"
        parts = [f"{node.name}{made}", _value("data", node.data_got if node.wrong_data else node.data,
                                              node.data, node.wrong_data)]
        if node.expected is not None:
            parts.append(_value("grad", node.grad, node.expected, node.wrong_grad))
        lines.append(("✗ " if node.wrong else "  ") + ", ".join(parts))
    return lines
