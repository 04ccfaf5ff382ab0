"""The picture of a failing case's graph, as micrograd's draw_dot draws it, made with graphviz.

One box per node (its name, data and grad), the operation that made it in an oval between
its children and it. Where the student's number differs from the right one the box says both,
and it is marked in red: the nodes a student should look at first. The picture needs the
`graphviz` Python package and its `dot` program (Debian: apt-get install graphviz); without
them `svg` returns None, `missing()` says why in one line, and `text` is the same graph in words.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from autograder.cases.common import fmt
from autograder.report import graph_fit
from autograder.report.model import CaseGraph, GraphNode

WRONG_FILL, WRONG_INK = "#fde2e1", "#b3261e"   # a wrong number: its cell, its text
BOX_INK, OP_FILL = "#3c4043", "#eef3fd"
ORIGIN_INK = "#b45309"                          # the first wrong step's box (cases/origin.py)
WRONG_MARK = "✗"                                # before a wrong number, as the page marks a failed case
TITLE_CHARS, OP_CHARS = 90, 24                  # a title's, an op's lines wrap here: never what widens a picture


def missing() -> str | None:
    """Why no picture can be drawn here, in one line; None when graphviz is ready."""
    if importlib.util.find_spec("graphviz") is None:
        return "the graphviz Python package is not installed (pip install graphviz): the graphs are shown as text"
    if _dot_on(os.environ.get("PATH")) is None:
        return ("graphviz's `dot` program is not installed (Debian/Ubuntu: apt-get install graphviz; "
                "macOS: brew install graphviz): the graphs are shown as text")
    return None


@lru_cache(maxsize=8)
def _dot_on(path: str | None) -> str | None:
    """Where dot is on this PATH: looked up once per PATH a process sees (a page asks on every render)."""
    return shutil.which("dot", path=path)


def svg(graph: CaseGraph, title: str = "", room_px: float = graph_fit.FILE_PX) -> str | None:
    """The graph as an inline <svg> element (no XML prolog) fitting room_px, or None without graphviz."""
    picture = pictures([(graph, title)], room_px)[0]
    return picture.svg if picture else None


@dataclass(frozen=True)
class Picture:
    svg: str                  # an <svg> element, its size in px, never wider than the room it was drawn for
    shown: CaseGraph          # the graph it draws: the case's, or the part of it around its first wrong step
    part: bool = False        # True: only that part (the whole graph did not fit at a readable size)


def pictures(graphs: list[tuple[CaseGraph, str]], room_px: float) -> list[Picture | None]:
    """Many pictures (graph, title) at once, each readable within room_px: the first of top to bottom,
    left to right, then ever smaller parts of the graph around its first wrong step (the title says
    which part) that fits; scaled down to the room (dot_process.py draws them). None each
    without graphviz (or where dot refused every try)."""
    if missing():
        return [None] * len(graphs)
    tries = [_tries(graph, title) for graph, title in graphs]
    seen: list[list[tuple[str, tuple]]] = [[] for _ in graphs]
    done = [False] * len(graphs)
    for step in range(max((len(t) for t in tries), default=0)):
        todo = [i for i, t in enumerate(tries) if not done[i] and step < len(t)]
        drawn = _drawn([source(shown, title, rankdir) for shown, title, rankdir, _ in (tries[i][step] for i in todo)])
        for i, svg_text in zip(todo, drawn):
            if svg_text is not None:
                seen[i].append((svg_text, tries[i][step]))
                done[i] = graph_fit.fits(svg_text, room_px)
    out = []
    for i, drawings in enumerate(seen):
        if not drawings:
            out.append(None)
            continue
        narrowest = min(drawings, key=lambda d: graph_fit.width_px(d[0]))
        svg_text, (shown, _, _, part) = drawings[-1] if done[i] else narrowest
        out.append(Picture(graph_fit.fitted(svg_text, room_px), shown, part))
    return out


def _tries(graph: CaseGraph, title: str) -> list[tuple[CaseGraph, str, str, bool]]:
    """(graph shown, title, rankdir, a part?) in the order they are tried."""
    out = [(graph, title, "TB", False), (graph, title, "LR", False)]
    for most in graph_fit.PART_NODES:
        if most < len(graph.nodes):
            part = graph_fit.around(graph, most)
            out += [(part, _part_title(title, part, graph), rankdir, True) for rankdir in ("TB", "LR")]
    return out


def svgs(graphs: list[tuple[CaseGraph, str]], room_px: float = graph_fit.FILE_PX) -> list[str | None]:
    """pictures(), their SVG alone."""
    return [p.svg if p else None for p in pictures(graphs, room_px)]


def _part_title(title: str, part: CaseGraph, whole: CaseGraph) -> str:
    return (f"{title} (part of the graph: the {len(part.nodes)} of its {len(whole.nodes)} nodes nearest "
            f"{graph_fit.centre(whole)})")


def _drawn(sources: list[str | None]) -> list[str | None]:
    """dot's SVG of each source (None stays None; None too where dot refused it), drawn by this process's one
    dot (dot_process.py: starting dot costs more than drawing a small graph) for those not drawn before in this
    process."""
    if len(_DRAWN) > 512:  # a long batch: keep memory flat
        _DRAWN.clear()
    new = list(dict.fromkeys(s for s in sources if s is not None and s not in _DRAWN))
    if new:
        from autograder.report import dot_process

        drawn = dot_process.draw(_dot_on(os.environ.get("PATH")), new)
        _DRAWN.update(zip(new, drawn))
    return [_DRAWN[s] if s is not None else None for s in sources]


# dot source -> its SVG (None: dot refused it): the same wrong graph recurs across a class, drawn once a process
_DRAWN: dict[str, str | None] = {}


def source(graph: CaseGraph, title: str = "", rankdir: str = "TB") -> str:
    """The dot source of the picture: top to bottom (the leaves first, the output last) or left to right.
    Made once a process for each (graph, title, rankdir): the same wrong graph recurs across a class."""
    key = (graph, title, rankdir)
    made = _SOURCES.get(key)
    if made is None:
        if len(_SOURCES) > 512:  # a long batch: keep memory flat
            _SOURCES.clear()
        made = _SOURCES[key] = _source(graph, title, rankdir)
    return made


_SOURCES: dict[tuple[CaseGraph, str, str], str] = {}


def _source(graph: CaseGraph, title: str, rankdir: str) -> str:
    import graphviz

    title = "".join(c if c.isprintable() else " " for c in title)  # dot takes no control characters
    title = _lines(title, TITLE_CHARS) + ("\\n" if title else "")
    g = graphviz.Digraph(graph_attr={"rankdir": rankdir, "bgcolor": "transparent", "label": title,
                                     "labelloc": "t", "fontname": "Helvetica", "fontsize": "12",
                                     "nodesep": "0.2", "ranksep": "0.25"},
                         node_attr={"fontname": "Helvetica", "fontsize": "11"},
                         edge_attr={"color": "#80868b", "arrowsize": "0.6"})
    for node in graph.nodes:
        g.node(node.name, label=f"<{_table(node, graph)}>", shape="plaintext")
        if node.op:
            op = f"{node.name}.op"
            g.node(op, label=_lines(node.op, OP_CHARS), shape="ellipse", style="filled", fillcolor=OP_FILL,
                   color="#aecbfa", height="0.3", margin="0.05,0.02")
            g.edge(op, node.name)
            for child in node.children:
                g.edge(child, op)
    return g.source


def _lines(text: str, width: int) -> str:
    """text in lines of at most `width` characters, each centred by dot (\\n); no backslash of its own,
    which would start one of dot's escapes."""
    return "\\n".join(textwrap.wrap(text.replace("\\", "/"), width))


def _table(node: GraphNode, graph: CaseGraph) -> str:
    """The node's box: its name, data and grad one under another (narrow, so that graphs fit a page)."""
    rows = [_cell(escape(node.name), bold=True)]
    rows += [_cell(line, wrong=node.wrong_data)
             for line in _value("data", node.data_got if node.wrong_data else node.data, node.data, node.wrong_data)]
    if node.expected is not None:
        rows += [_cell(line, wrong=node.wrong_grad)
                 for line in _value("grad", node.grad, node.expected, node.wrong_grad)]
    border, style = (WRONG_INK if node.wrong else BOX_INK), 'BORDER="1"'
    if node.name == graph.origin:
        border, style = ORIGIN_INK, 'BORDER="3"'
        rows.append(f'<TD><FONT COLOR="{ORIGIN_INK}"><B>first wrong step</B></FONT></TD>')
    elif node.name in graph.after:
        style = 'BORDER="1" STYLE="dashed"'
        rows.append(f'<TD><FONT COLOR="{WRONG_INK}">wrong because of {escape(graph.origin)}</FONT></TD>')
    return (f'<TABLE {style} CELLBORDER="0" CELLSPACING="0" CELLPADDING="2" COLOR="{border}">'
            f'{"".join(f"<TR>{row}</TR>" for row in rows)}</TABLE>')


def _cell(text: str, *, bold: bool = False, wrong: bool = False) -> str:
    if bold:
        text = f"<B>{text}</B>"
    if wrong:
        return f'<TD BGCOLOR="{WRONG_FILL}"><FONT COLOR="{WRONG_INK}">{text}</FONT></TD>'
    return f"<TD>{text}</TD>"


def _value(what: str, got, expected, wrong: bool) -> list[str]:
    """The lines of one number in a box: 'grad 0.5', or '✗ grad 0.2' and 'expected 0.5' where it is wrong (the
    mark and the word say it, not the colour alone)."""
    if not wrong:
        return [f"{what} {number(expected)}"]
    return [escape(f"{WRONG_MARK} {what} {number(got)}"), escape(f"expected {number(expected)}")]


def number(x) -> str:
    """A number as the picture and its table write it: four decimals, or "nothing" for none."""
    return "nothing" if x is None else (f"{x:.4f}" if abs(x) < 1e5 else fmt(x))


def text(graph: CaseGraph) -> list[str]:
    """The graph in words, one line per node: what `svg` draws, for where it can't."""
    lines = []
    for node in graph.nodes:
        made = f" = {node.op}({', '.join(node.children)})" if node.op else " (a leaf)"
        if node.note == "mix":
            made = f" = {node.op}"
        parts = [f"{node.name}{made}", _said("data", node.data_got if node.wrong_data else node.data,
                                             node.data, node.wrong_data)]
        if node.expected is not None:
            parts.append(_said("grad", node.grad, node.expected, node.wrong_grad))
        if node.name == graph.origin:
            parts.append("the first wrong step")
        elif node.name in graph.after:
            parts.append(f"wrong because of {graph.origin}")
        lines.append(("✗ " if node.wrong else "  ") + ", ".join(parts))
    return lines


def _said(what: str, got, expected, wrong: bool) -> str:
    return f"{what} {number(expected)}" if not wrong else f"{what} {number(got)} (expected {number(expected)})"
