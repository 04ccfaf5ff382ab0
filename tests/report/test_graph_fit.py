"""Is a picture drawn no wider than the room it is shown in, and readable there?"""
from __future__ import annotations

import re
import shutil

import pytest

from autograder.report import graph_fit, graph_svg
from autograder.report.model import CaseGraph, GraphNode

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")


def chain_and_fan(width: int) -> CaseGraph:
    """`width` leaves all feeding one mix node, then a chain of three: wide at the top, its origin at n1."""
    leaves = [GraphNode(f"x{i}", float(i), grad=1.0, expected=1.0) for i in range(width)]
    n0 = GraphNode("n0", 1.0, " + ".join(f"1*x{i}" for i in range(width)), tuple(f"x{i}" for i in range(width)),
                   grad=1.0, expected=1.0, note="mix")
    n1 = GraphNode("n1", 1.0, "2*n0", ("n0",), grad=1.0, expected=1.0, note="mix")
    n2 = GraphNode("n2", 1.0, "1*n1", ("n1",), grad=1.0, expected=1.0, note="mix")
    return CaseGraph((*leaves, n0, n1, n2), origin="n1")


def test_is_a_picture_scaled_down_to_its_room_and_never_up():
    svg = '<svg width="900pt" height="300pt" viewBox="0 0 900 300"><g/></svg>'
    assert graph_fit.width_px(svg) == 1200
    assert graph_fit.fitted(svg, 600).startswith('<svg width="600px" height="200px"')
    assert graph_fit.fitted(svg, 2000).startswith('<svg width="1200px" height="400px"')
    assert graph_fit.fits(svg, 1200 * graph_fit.MIN_SCALE) and not graph_fit.fits(svg, 800)


def test_is_the_part_around_the_origin_the_nodes_nearest_it():
    part = graph_fit.around(chain_and_fan(12))
    assert [n.name for n in part.nodes] == ["x0", "x1", "x2", "x3", "n0", "n1", "n2"]
    assert part.nodes[4].children == ("x0", "x1", "x2", "x3")  # the links to the leaves left out go with them
    assert part.origin == "n1"


@needs_dot
@pytest.mark.parametrize("room", [graph_fit.PAGE_PX, graph_fit.FILE_PX])
def test_is_every_picture_drawn_within_its_room_at_a_readable_scale(room):
    for width in (2, 8, 30):
        picture = graph_svg.pictures([(chain_and_fan(width), "a title " * 40)], room)[0]
        assert graph_fit.width_px(picture.svg) <= room
        view_pt = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+)', picture.svg).group(1))
        assert graph_fit.width_px(picture.svg) / (view_pt * 4 / 3) >= graph_fit.MIN_SCALE - 0.01
        assert picture.part == (width > 2 and room == graph_fit.PAGE_PX)  # 30 leaves fit 1240 px left to right


@needs_dot
def test_does_a_part_of_a_graph_say_so_in_its_title():
    picture = graph_svg.pictures([(chain_and_fan(40), "case")], graph_fit.PAGE_PX)[0]
    assert picture.part and "part of the graph" in picture.svg and "nearest n1" in picture.svg


def wide_and_deep(width: int, depth: int) -> CaseGraph:
    """chain_and_fan's fan, then a chain of `depth` more nodes: too wide top to bottom and left to right."""
    fan = chain_and_fan(width)
    chain = [GraphNode(f"n{k}", 1.0, f"1*n{k - 1}", (f"n{k - 1}",), grad=1.0, expected=1.0, note="mix")
             for k in range(3, 3 + depth)]
    return CaseGraph((*fan.nodes, *chain), origin="n1")


@needs_dot
def test_does_check_graph_write_the_whole_graph_in_words_beside_a_part(tmp_path):
    from autograder.report.graph_files import write_graphs
    from autograder.report.model import CaseResult, Report, TaskResult

    graph = wide_and_deep(30, 16)
    case = CaseResult("backward/random-1", "failed", message="x0.grad: got 0, expected 1", graph=graph)
    report = Report("s", 0.0, 15.0, (TaskResult("backward", "backward()", 0.0, 15.0, (case,)),))
    written = write_graphs(report, tmp_path)
    assert [p.name for p in written] == ["backward--random-1.svg", "backward--random-1.txt"]
    svg = written[0].read_text()
    assert "part of the graph" in svg and graph_fit.width_px(svg) <= graph_fit.FILE_PX
    assert len(written[1].read_text().splitlines()) == 1 + len(graph.nodes)
