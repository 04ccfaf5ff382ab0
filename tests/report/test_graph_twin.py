"""Does each graph picture's text twin say what the picture says, number for number, and can it be read?

Real single-bug engines (tests/corpus/variants.py) are checked, on their feedback pages: every picture
drawn by the real graphviz is read back (each node's box: its name, data, grad, the expected value, the
marks) and set against the twin table under it (node, operation, data, grad, expected, status). And
the picture's own colours have the contrast WCAG 2.1 AA asks of text (4.5:1) on what they are drawn on.
"""
from __future__ import annotations

import re
import shutil
import sys
from html import unescape
from pathlib import Path
from xml.etree import ElementTree

import pytest

from autograder.config import load_rubric
from autograder.goldens import GoldenStore
from autograder.grading import grade_path
from autograder.report import graph_svg, graph_twin
from autograder.report.html_report import render_feedback
from autograder.report.model import CaseGraph, GraphNode

sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))  # the corpus's harness builds the variants
import variants as corpus  # noqa: E402

MUTANTS = ("mul-assign", "add-assign", "tanh-uses-input", "backward-no-visited", "backward-not-reversed",
           "relu-grad-one-at-zero", "backward-no-seed")
SVG = "{http://www.w3.org/2000/svg}"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> list[tuple[str, str]]:
    """(mutant, one <figure>'s HTML) for every picture on the mutants' feedback pages."""
    work = tmp_path_factory.mktemp("twins")
    rubric = load_rubric(corpus.RUBRIC_FILE)
    store = GoldenStore(cache_dir=work / "goldens")
    found = []
    for name in MUTANTS:
        report = grade_path(corpus.build(corpus.by_id()[name], work / name), rubric=rubric, include_hidden=False,
                            store=store)
        found += [(name, f) for f in re.findall(r"<figure class=\"graph\".*?</figure>", render_feedback(report), re.S)]
    return found


def picture_boxes(figure: str) -> dict[str, list[str]]:
    """node name -> the lines of text in its box, read from the <svg>."""
    svg = ElementTree.fromstring(re.search(r"<svg.*</svg>", figure, re.S).group(0))
    boxes = {}
    for g in svg.iter(f"{SVG}g"):
        if g.get("class") == "node" and not g.findtext(f"{SVG}title", "").endswith(".op"):
            lines = [t.text.strip() for t in g.iter(f"{SVG}text") if t.text and t.text.strip()]
            boxes[lines[0]] = lines[1:]
    return boxes


def twin_rows(figure: str) -> dict[str, dict[str, str]]:
    """node name -> its row of the twin table, by header."""
    table = re.search(r'<table class="twin">(.*?)</table>', figure, re.S).group(1)
    headers = [unescape(h) for h in re.findall(r'<th scope="col">(.*?)</th>', table)]
    rows = {}
    for row in re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table, re.S):
        cells = [unescape(row[0])] + [unescape(c) for c in re.findall(r"<td>(.*?)</td>", row[1], re.S)]
        rows[cells[0]] = dict(zip(headers, cells))
    return rows


@needs_dot
def test_does_every_picture_have_a_twin_with_a_caption_and_scoped_headers(figures):
    """Is each picture named (role=img, its own <title>), with a twin table captioned and its headers scoped?"""
    assert len(figures) >= len(MUTANTS)
    for name, figure in figures:
        assert re.search(r'<svg[^>]* role="img" aria-labelledby="(graph-[\w-]+-name)"', figure), name
        key = re.search(r'aria-labelledby="(graph-[\w-]+-name)"', figure).group(1)
        assert f'<title id="{key}">' in figure, name
        assert re.search(r"<caption id=\"graph-[\w-]+-caption\">.+</caption>", figure), name
        assert re.findall(r'<th scope="col">(.*?)</th>', figure) == list(graph_twin.HEADERS), name


@needs_dot
def test_does_each_twin_say_the_numbers_and_marks_of_its_picture(figures):
    """Every node the picture draws: the same data, grad and expected value in its row, and its marks said in words."""
    origins = 0
    for name, figure in figures:
        boxes, rows = picture_boxes(figure), twin_rows(figure)
        assert boxes and set(boxes) <= set(rows), (name, set(boxes) - set(rows))
        for node, lines in boxes.items():
            row, where = rows[node], f"{name}: {node}"
            data = next(line for line in lines if line.startswith("data "))
            assert row["data"] == data.removeprefix("data "), where
            grad = next((line for line in lines if "grad " in line), None)
            if grad is not None:
                assert row["grad"] == grad.split("grad ")[1], where
                wrong = grad.startswith(graph_svg.WRONG_MARK)
                assert row["status"].startswith("wrong") == wrong, where
                if wrong:  # the expected value, right under it
                    assert row["expected"] == lines[lines.index(grad) + 1].removeprefix("expected "), where
                else:
                    assert row["expected"] == grad.split("grad ")[1], where
            else:
                assert row["grad"] == "not observed", where
            if "first wrong step" in lines:
                origins += 1
                assert row["status"].endswith("the first wrong step") or "the first wrong step:" in row["status"], where
                assert "The first wrong step is at" in figure, where
            elif any(line.startswith("wrong because of ") for line in lines):
                origin = next(line for line in lines if line.startswith("wrong because of ")).split()[-1]
                assert row["status"] == f"wrong only because of {origin}", where
    assert origins >= 3  # the cases a first wrong step is found for are among those checked


def test_does_the_twin_caption_name_the_first_wrong_step_and_what_follows_from_it():
    """A graph with an origin and two nodes after it: the sentence names all three; one without: the wrong nodes."""
    nodes = (GraphNode("x0", 1.0, grad=2.0, expected=4.0, wrong_grad=True),
             GraphNode("x1", 2.0, grad=1.0, expected=3.0, wrong_grad=True),
             GraphNode("n0", 2.0, "*", ("x0", "x1"), grad=1.0, expected=1.0))
    graph = CaseGraph(nodes, origin="n0", after=("x0", "x1"))
    assert graph_twin.said(graph) == "The first wrong step is at n0 = x0 * x1. x0 and x1 are wrong only because of it."
    assert graph_twin.said(CaseGraph(nodes)) == \
        "Wrong: x0 and x1. The numbers do not single out one first wrong step."
    assert [r[-1] for r in graph_twin.rows(graph)] == ["wrong only because of n0"] * 2 + ["right, but the first wrong step: what it hands on is wrong"]


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(ink: str, paper: str) -> float:
    light, dark = sorted((_luminance(ink), _luminance(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_is_every_text_colour_of_the_picture_at_least_4_5_to_1():
    """The first wrong step's orange, a wrong number's red on its pink, the boxes' ink: each at least 4.5:1."""
    white = "#ffffff"
    pairs = {"first wrong step": (graph_svg.ORIGIN_INK, white), "a wrong number": (graph_svg.WRONG_INK, graph_svg.WRONG_FILL),
             "wrong because of": (graph_svg.WRONG_INK, white), "a box": (graph_svg.BOX_INK, white),
             "an operation": ("#000000", graph_svg.OP_FILL)}
    low = {what: round(contrast(*pair), 2) for what, pair in pairs.items() if contrast(*pair) < 4.5}
    assert not low, low
