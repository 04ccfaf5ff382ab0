"""Does the one dot a process keeps draw each graph as a fresh dot draws it alone, and stay that process's own?"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from autograder.report import dot_process

DOT = shutil.which("dot")
pytestmark = pytest.mark.skipif(DOT is None, reason="graphviz's dot is not installed")

SOURCES = ["digraph { a -> b; }", 'digraph { rankdir=LR; c -> d -> e; label="hi" }', "digraph { [ }",
           "digraph { x [label=<<B>x</B>>]; x -> y; }", "digraph { a -> b; }", "digraph G { a -> b; }"]


def test_is_each_graph_drawn_as_a_fresh_dot_draws_it_alone():
    alone = [dot_process._element(subprocess.run([DOT, "-Kdot", "-Tsvg"], input=s.encode(), capture_output=True)
                                  .stdout.decode() or None) for s in SOURCES]
    assert dot_process.draw(DOT, SOURCES) == alone and alone[2] is None and alone[0].startswith("<svg")


def test_does_a_forked_process_draw_with_a_dot_of_its_own():
    """A fork must not write into its parent's dot (their pictures would cross): it starts its own, and the
    parent's goes on serving the parent."""
    assert dot_process.draw(DOT, ["digraph { p -> q; }"])[0].startswith("<svg")
    parents = dot_process._KEPT[0].proc.pid
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's exit status carries the answer
        ok = False
        try:
            drawn = dot_process.draw(DOT, ["digraph { r -> s; }"])[0]
            ok = drawn.startswith("<svg") and dot_process._KEPT[0].proc.pid != parents
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    said = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    assert said == b"1"
    assert dot_process.draw(DOT, ["digraph { t -> u; }"])[0].startswith("<svg") and \
        dot_process._KEPT[0].proc.pid == parents
