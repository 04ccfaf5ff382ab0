"""Does the picture of a failing case mark exactly the wrong nodes, drawn by the real graphviz?

Real single-bug engines (variants of solutions/, tests/corpus/variants.py) are checked; their
feedback pages are rendered; every SVG in them is read back: the nodes drawn in red must be
exactly those whose number differs from the reference's, found here independently by running
the case's program on the variant in this process (trusted code: it is ours).
"""
from __future__ import annotations

import math
import re
import shutil
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from autograder.config import load_rubric
from autograder.engines import package_api
from autograder.goldens import GoldenStore
from autograder.goldens.compute import program
from autograder.grading import grade_path, select_cases
from autograder.report import graph_svg
from autograder.report.html_report import render_feedback

sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))  # the corpus's harness builds the variants
import variants as corpus  # noqa: E402

MUTANTS = ("add-assign", "mul-own-data", "tanh-uses-input", "relu-grad-one-at-zero", "backward-no-visited",
           "backward-not-reversed")
SVG = "{http://www.w3.org/2000/svg}"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """mutant -> (its folder, its Report from a check, the goldens)."""
    work = tmp_path_factory.mktemp("graphs")
    rubric = load_rubric(corpus.RUBRIC_FILE)
    store = GoldenStore(cache_dir=work / "goldens")
    goldens = store.goldens(select_cases(rubric, include_hidden=False), activation=rubric.activation)
    out = {}
    for name in MUTANTS:
        folder = corpus.build(corpus.by_id()[name], work / name)
        out[name] = (folder, grade_path(folder, rubric=rubric, include_hidden=False, store=store), goldens)
    return out


def _differs(got, expected) -> bool:
    return not (isinstance(got, float) and math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-8))


def wrong_nodes(case, obs: dict, golden: dict) -> set[str]:
    """The nodes whose observed number differs from the golden, by the observations' own names."""
    wrong = set()
    for name, expected in golden.items():
        if name in ("a.grad", "b.grad") and _differs(obs.get(name), expected):
            wrong.add(name[0])
        elif name in ("leaf_grads", "node_grads"):
            prefix = "x" if name == "leaf_grads" else "n"
            wrong |= {f"{prefix}{i}" for i, e in enumerate(expected) if _differs(float(obs[name][i]), e)}
        elif name == "root.grad" and _differs(obs.get(name), expected):
            wrong.add(f"n{len(case.params['nodes']) - 1}")
        elif name == "out" and _differs(obs.get(name), expected):
            wrong.add("out" if case.program == "ops.local" else f"n{len(case.params['nodes']) - 1}")
    return wrong


def marked(svg: str) -> tuple[set[str], set[str]]:
    """(every node drawn, the nodes drawn in red) of one SVG picture."""
    root = ElementTree.fromstring(svg)
    drawn, red = set(), set()
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "node":
            continue
        title = g.find(f"{SVG}title").text
        if title.endswith(".op"):
            continue
        drawn.add(title)
        if any(p.get("fill", "").lower() == graph_svg.WRONG_FILL for p in g.iter(f"{SVG}polygon")):
            red.add(title)
    return drawn, red


@needs_dot
@pytest.mark.parametrize("name", MUTANTS)
def test_does_each_picture_mark_exactly_the_wrong_nodes(checked, name):
    folder, report, goldens = checked[name]
    api = package_api(folder, name)
    page = render_feedback(report)
    figures = re.findall(r'<figure class="graph[^"]*" data-wrong="([^"]*)"[^>]*>\s*(?:<div[^>]*>)?(<svg.*?</svg>)', page, re.S)
    assert figures, f"{name}: no picture in its feedback page"
    by_id = {c.id: c for c in select_cases(load_rubric(corpus.RUBRIC_FILE), include_hidden=False)}
    pictured = [c for t in report.tasks for c in t.cases if c.graph is not None]
    for result in pictured:
        case = by_id[result.id]
        obs = program(case.program)(api, case.params)
        obs = {k: ([float(x) for x in v] if isinstance(v, list) else float(v)) for k, v in obs.items()}
        assert set(result.graph.wrong) == wrong_nodes(case, obs, goldens[case.id]), result.id
    for wrong_attr, svg in figures:
        drawn, red = marked(svg)
        assert red == set(wrong_attr.split()), (name, red, wrong_attr)
        assert red and red <= drawn


def test_is_a_hidden_case_never_pictured(checked, tmp_path):
    folder, _, _ = checked["mul-own-data"]
    report = grade_path(folder, rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=tmp_path))
    hidden = [c for t in report.tasks for c in t.cases if c.visibility == "hidden" and c.status == "failed"]
    assert hidden and all(c.graph is None for c in hidden)


def test_without_dot_does_the_page_say_so_once_and_show_the_graph_as_text(checked, monkeypatch, tmp_path):
    _, report, _ = checked["backward-no-visited"]
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot on it
    page = render_feedback(report)
    assert "<svg" not in page
    assert page.count("apt-get install graphviz") == 1
    assert "✗ x0 (a leaf), data 2.0000, grad 2.0000 (expected 4.0000)" in page


def test_without_the_graphviz_package_are_the_graphs_written_as_text(checked, monkeypatch, tmp_path):
    from autograder.report.graph_files import write_graphs

    real = graph_svg.importlib.util.find_spec
    monkeypatch.setattr(graph_svg.importlib.util, "find_spec", lambda name: None if name == "graphviz" else real(name))
    assert "pip install graphviz" in graph_svg.missing()
    _, report, _ = checked["add-assign"]
    written = write_graphs(report, tmp_path / "g")
    assert written and all(p.suffix == ".txt" for p in written)
    assert any("(expected" in p.read_text() for p in written)


@needs_dot
def test_does_a_graph_dot_refuses_show_as_text_without_taking_the_others_down(checked, monkeypatch):
    _, report, _ = checked["add-assign"]
    graph = next(c.graph for t in report.tasks for c in t.cases if c.graph is not None)
    assert graph_svg.svgs([(graph, "title\x00with a NUL")])[0].startswith("<svg")  # control characters dropped
    real = graph_svg.source
    # a source dot can't read, drawn in the same run as a good one
    monkeypatch.setattr(graph_svg, "source",
                        lambda g, title="", *rest: "digraph { [ }" if title == "bad" else real(g, title, *rest))
    bad, good = graph_svg.svgs([(graph, "bad"), (graph, "good")])
    assert bad is None and good.startswith("<svg")


@needs_dot
def test_is_the_origin_marked_in_the_picture_and_said_in_the_case_text(checked):
    """The first wrong step's box is drawn with the origin's ink and says so; the nodes wrong only because of
    it say that; the case's details (what every text report prints) carry the sentence."""
    marked_any = False
    for name in MUTANTS:
        _, report, _ = checked[name]
        for case in (c for t in report.tasks for c in t.cases if c.graph is not None and c.graph.origin):
            marked_any = True
            graph = case.graph
            assert any(line.startswith("The first wrong step is") for line in case.details)
            picture = graph_svg.svg(graph, "t")
            assert graph_svg.ORIGIN_INK in picture and "first wrong step" in picture
            assert all(f"wrong because of {graph.origin}" in picture for _ in graph.after[:1])
            assert "the first wrong step" in "\n".join(graph_svg.text(graph))
    assert marked_any


@needs_dot
def test_is_the_same_picture_drawn_on_every_run(checked):
    _, report, _ = checked["backward-no-visited"]
    graphs = [(c.graph, c.id) for t in report.tasks for c in t.cases if c.graph is not None]
    first = graph_svg.svgs(graphs)
    graph_svg._DRAWN.clear()
    assert graph_svg.svgs(graphs) == first


def test_is_a_graphs_dot_source_made_once_a_process_and_anothers_afresh(monkeypatch):
    """A class's pages show the same wrong graphs again and again: is each (graph, title, rankdir)'s dot source
    built once, and a changed graph or title built anew?"""
    import graphviz

    from autograder.report.model import CaseGraph, GraphNode

    built = []
    real = graphviz.Digraph
    monkeypatch.setattr(graphviz, "Digraph", lambda *a, **k: built.append(1) or real(*a, **k))
    graph = CaseGraph((GraphNode("x0", 2.0, grad=1.0, expected=4.0, wrong_grad=True),))
    title = "test_is_a_graphs_dot_source_made_once"
    first = graph_svg.source(graph, title)
    assert graph_svg.source(graph, title) == first and len(built) == 1
    other = CaseGraph((GraphNode("x0", 2.0, grad=3.0, expected=4.0, wrong_grad=True),))
    assert graph_svg.source(other, title) != first and graph_svg.source(graph, title + "!") != first
    assert graph_svg.source(graph, title, "LR") != first and len(built) == 4


def _tiny(value: float):
    from autograder.report.model import CaseGraph, GraphNode

    return CaseGraph((GraphNode("x0", value, grad=1.0, expected=4.0, wrong_grad=True),))


@needs_dot
def test_is_a_picture_the_same_whatever_was_drawn_before_it():
    """A page's picture is the one a fresh dot draws of it alone, whether it comes first in a round of pictures or
    after others (dot numbers an unnamed graph and prefixes its group's id by what it drew before)."""
    first, second = (_tiny(2.0), "test_is_a_picture_the_same: first"), (_tiny(3.0), "test_is_a_picture_the_same: 2nd")
    graph_svg._DRAWN.clear()
    together = graph_svg.svgs([first, second])
    graph_svg._DRAWN.clear()
    assert graph_svg.svgs([second]) == together[1:] and graph_svg.svgs([first]) == together[:1]
    assert '<g id="graph0" class="graph"' in together[1] and "page0,1" not in together[1]


@needs_dot
def test_does_one_dot_draw_a_class_of_pictures(monkeypatch):
    """Starting dot costs more than drawing a small graph: is one dot started for many rounds of new pictures
    (the pages of a class), and a new one only after dot refused a source?"""
    import subprocess

    started = []
    real = subprocess.Popen

    def counting(argv, *args, **kwargs):
        if Path(str(argv[0])).name == "dot":
            started.append(argv)
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", counting)
    graph_svg._DRAWN.clear()
    for value in (5.0, 6.0, 7.0):
        assert graph_svg.svgs([(_tiny(value), "test_does_one_dot_draw")])[0].startswith("<svg")
    assert len(started) <= 1
    real_source = graph_svg.source
    monkeypatch.setattr(graph_svg, "source",
                        lambda g, title="", *rest: "digraph { [ }" if title == "bad" else real_source(g, title, *rest))
    bad, good = graph_svg.svgs([(_tiny(8.0), "bad"), (_tiny(8.0), "good")])
    assert bad is None and good.startswith("<svg") and len(started) <= 2
