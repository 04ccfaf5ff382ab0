"""A graph picture's text twin, and the accessible name of the picture itself.

The picture (graph_svg.py) is the most important thing on a failing case's page, and a screen reader
reads none of it: the twin is the same facts as a table a screen reader can walk (node, operation,
data, grad, expected, status), numbers written exactly as the picture writes them, with a caption that
says in words where the first wrong step is and which nodes are wrong only because of it. The status
column says "wrong" where the picture marks red: colour is never the only signal.

`labelled` gives an inline <svg> an accessible name (role="img", aria-labelledby its own <title>) and
ids of its own on the page (dot numbers them node1, node2... in every picture).
"""
from __future__ import annotations

import re
from html import escape

from autograder.cases.origin import expression
from autograder.report.graph_svg import number
from autograder.report.model import CaseGraph, GraphNode

HEADERS = ("node", "operation", "data", "grad", "expected", "status")


def rows(graph: CaseGraph) -> list[tuple[str, ...]]:
    """One row per node, in the graph's order (the leaves first): its cells under HEADERS."""
    return [_row(node, graph) for node in graph.nodes]


def _row(node: GraphNode, graph: CaseGraph) -> tuple[str, ...]:
    operation = expression(node).partition(" = ")[2] if node.op and node.children else (node.op or "a leaf")
    data = number(node.data_got if node.wrong_data else node.data)
    grad = "not observed" if node.expected is None else number(node.grad)
    expected = []
    if node.wrong_data:
        expected.append(f"data {number(node.data)}")
    if node.expected is not None:
        expected.append(f"grad {number(node.expected)}" if node.wrong_data else number(node.expected))
    return node.name, operation, data, grad, "; ".join(expected) or "–", _status(node, graph)


def _status(node: GraphNode, graph: CaseGraph) -> str:
    if node.name == graph.origin:  # its own numbers may be right: the step it takes from them is not
        return "wrong, and the first wrong step" if node.wrong else "right, but the first wrong step: what it hands on is wrong"
    if node.name in graph.after:
        return f"wrong only because of {graph.origin}"
    if node.wrong:
        return "wrong " + " and ".join(what for what, bad in (("data", node.wrong_data), ("grad", node.wrong_grad)) if bad)
    return "right" if node.expected is not None or node.data_got is not None else "not observed"


def said(graph: CaseGraph) -> str:
    """The graph's first wrong step and what follows from it, in words: the caption of its table."""
    wrong = graph.wrong
    if graph.origin:
        origin = next(n for n in graph.nodes if n.name == graph.origin)
        text = f"The first wrong step is at {expression(origin) if origin.children else origin.name}."
        if graph.after:
            are = "is" if len(graph.after) == 1 else "are"
            text += f" {_and(graph.after)} {are} wrong only because of it."
        return text
    if wrong:
        return f"Wrong: {_and(wrong)}. The numbers do not single out one first wrong step."
    return "Every number observed is right."


def _and(names) -> str:
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


_ID = re.compile(r'(\sid=")([^"]*")')
_OPEN = re.compile(r"<svg\b[^>]*>")


def labelled(svg: str, key: str, name: str) -> str:
    """The <svg> with role="img", named by a <title> of its own (aria-labelledby), its ids prefixed with key."""
    svg = _ID.sub(lambda m: f"{m.group(1)}{key}-{m.group(2)}", svg)
    opened = _OPEN.search(svg)
    if opened is None:
        return svg
    tag = opened.group(0)[:-1] + f' role="img" aria-labelledby="{key}-name">'
    return (svg[:opened.start()] + tag + f'<title id="{key}-name">{escape(name)}</title>' + svg[opened.end():])
