"""How big a graph's picture is drawn: readable where it is shown, and never wider than the room there.

A picture is drawn at its natural size when it fits, scaled down when it fits at a scale still read
without effort (MIN_SCALE), and otherwise the caller draws another layout or a part of the graph: the
nodes around the first wrong step (`around`). The sizes are written into the <svg> element itself, so
the picture is the same wherever it is opened (a feedback page, a file from `check --graph`).
"""
from __future__ import annotations

import re
from dataclasses import replace

from autograder.report.model import CaseGraph

PAGE_PX = 720    # a feedback page's figure: the page's 52rem column, less the case's indent
FILE_PX = 1240   # a picture opened on its own in a window 1280 px wide
MIN_SCALE = 0.7  # 11 pt text (14.7 px) drawn at 10 px: smaller is squinted at, not read
PART_NODES = (7, 5, 3)  # a part of a graph: this many nodes nearest its centre, the fewest only if need be

_SIZE = re.compile(r'(<svg[^>]*?\s)width="([\d.]+)(pt|px)?"(\s+)height="([\d.]+)(pt|px)?"')


def width_px(svg_text: str) -> float:
    """The picture's width in CSS pixels (dot writes points), from the <svg> element's width."""
    found = _SIZE.search(svg_text)
    return _px(found.group(2), found.group(3)) if found else 0.0


def fits(svg_text: str, room_px: float) -> bool:
    """Does the picture fit `room_px` at a scale still read without effort?"""
    return width_px(svg_text) * MIN_SCALE <= room_px


def fitted(svg_text: str, room_px: float) -> str:
    """The picture with its width and height in px, scaled down (never up) to fit `room_px`."""
    found = _SIZE.search(svg_text)
    if not found:
        return svg_text
    width, height = _px(found.group(2), found.group(3)), _px(found.group(5), found.group(6))
    scale = min(1.0, room_px / width) if width else 1.0
    size = f'{found.group(1)}width="{width * scale:.0f}px"{found.group(4)}height="{height * scale:.0f}px"'
    return svg_text[:found.start()] + size + svg_text[found.end():]


def _px(number: str, unit: str | None) -> float:
    return float(number) * (4 / 3 if unit in (None, "pt") else 1.0)


def centre(graph: CaseGraph) -> str:
    """Where a part of the graph is centred: its origin, else the wrong node nearest the output."""
    wrong = graph.wrong
    return graph.origin or (wrong[-1] if wrong else graph.nodes[-1].name)


def around(graph: CaseGraph, most: int = PART_NODES[0]) -> CaseGraph:
    """The part of the graph nearest its centre, at most `most` nodes (by links from it; the wrong ones
    first at each distance, then in the graph's order), links to the rest left out."""
    links: dict[str, set[str]] = {n.name: set() for n in graph.nodes}
    for node in graph.nodes:
        for child in node.children:
            if child in links:
                links[node.name].add(child)
                links[child].add(node.name)
    rank = {n.name: (not n.wrong, i) for i, n in enumerate(graph.nodes)}
    near, ring = [centre(graph)], [centre(graph)]
    while ring and len(near) < most:
        ring = sorted({other for name in ring for other in links[name]} - set(near), key=rank.get)
        near += ring[:most - len(near)]
    nodes = tuple(replace(n, children=tuple(c for c in n.children if c in near))
                  for n in graph.nodes if n.name in near)
    return replace(graph, nodes=nodes, after=tuple(n for n in graph.after if n in near))
