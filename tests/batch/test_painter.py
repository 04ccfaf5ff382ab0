"""Does the histogram come out the same, byte for byte, whoever draws it: the painter process that imported
matplotlib at idle priority meanwhile, the grading process after a painter that died, or one not started?"""
from __future__ import annotations

import sys

import pytest

from autograder.batch import painter
from autograder.report.histogram import histogram_png


@pytest.fixture(autouse=True)
def matplotlib_not_imported_yet(monkeypatch):
    """As in a fresh grading process (this one imports it to draw the reference picture)."""
    monkeypatch.setattr(painter, "_imported", lambda: False)


SUMMARY = {"histogram": {"edges": [i * 1.5 for i in range(11)], "counts": [0, 1, 2, 3, 0, 5, 6, 0, 8, 9]},
           "max_score": 15.0, "submissions": 34, "mean": 7.5}


def test_is_the_painters_picture_the_one_drawn_here(monkeypatch):
    monkeypatch.setattr(painter, "READY_SECONDS", 120.0)  # its import at idle priority: waited for, here
    painter.start(painter.PAINTER_MIN)
    [started] = painter._STARTED
    process = started.process
    assert painter.draw(SUMMARY) == histogram_png(SUMMARY)
    assert not process.is_alive() and not painter._STARTED


def test_is_the_picture_drawn_here_when_the_painter_died():
    painter.start(painter.PAINTER_MIN)
    [started] = painter._STARTED
    process = started.process
    process.kill()
    process.join()
    assert painter.draw(SUMMARY) == histogram_png(SUMMARY)


def test_does_a_painter_not_asked_to_draw_end_with_the_batch():
    painter.start(painter.PAINTER_MIN)
    [started] = painter._STARTED
    process = started.process
    painter.stop()
    assert not process.is_alive() and not painter._STARTED


def test_does_a_ready_painter_not_asked_to_draw_end_quietly(monkeypatch):
    """It said it was ready, unread: our end closing resets the connection, which it takes as the end too.
    (Given time to end: on a machine with two CPU burners its exit, matplotlib loaded, took over the 1 s the
    batch gives it before killing it, which is what the batch should do, and not what this test asks.)"""
    monkeypatch.setattr(painter, "END_SECONDS", 60.0)
    painter.start(painter.PAINTER_MIN)
    [started] = painter._STARTED
    assert started.conn.poll(120)
    painter.stop()
    assert started.process.exitcode == 0


def test_is_nothing_started_where_matplotlib_is_imported_already(monkeypatch):
    monkeypatch.setattr(painter, "_imported", lambda: True)
    painter.start(painter.PAINTER_MIN)
    assert not painter._STARTED and painter.draw(SUMMARY) == histogram_png(SUMMARY)


def test_does_a_small_class_import_in_a_thread_of_its_own():
    painter.start(painter.PAINTER_MIN - 1)
    assert [type(s).__name__ for s in painter._STARTED] == ["Thread"]
    assert painter.draw(SUMMARY) == histogram_png(SUMMARY)


def test_does_the_painter_draw_only_when_asked(monkeypatch):
    """A drawing costs ~0.05 s of CPU, the first one as much as the next (matplotlib's import loads the fonts): is
    nothing drawn while matplotlib is imported ahead, at idle priority, only the class's picture when asked?"""
    import threading

    from autograder.report import histogram

    drawn = []
    monkeypatch.setattr(histogram, "histogram_png", lambda summary: drawn.append(summary) or b"")
    thread = threading.Thread(target=painter._import, kwargs={"idle": True})  # idle: this thread only
    thread.start()
    thread.join()
    assert "matplotlib.figure" in sys.modules and drawn == []
