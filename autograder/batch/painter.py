"""The class's histogram, drawn by a process that imports matplotlib on CPU the grading leaves idle.

Importing matplotlib costs ~0.45 s of CPU, drawing the histogram ~0.07 s. A thread of the grading process
importing it during the batch takes that CPU from the workers (and the grading process's GIL from storing
their results). So, for a class of at least PAINTER_MIN submissions to grade, a process of its own (the
painter) imports it in a thread at SCHED_IDLE priority, which runs only when a core would otherwise idle
(a batch's workers and their sandboxed children wait on each other now and then), and at the end draws the
histogram at normal priority with report/histogram.py, while the grading process writes the other class
files. Where it has not answered within ANSWER_SECONDS (a machine busy with other work can starve an idle
thread) the grading process draws it itself, as it does without a painter: the same function, the same
bytes. A smaller class is over before idle moments add up to an import: matplotlib is imported by a
background thread of the grading process, as before.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading

from autograder.batch.sigint import sigint_blocked

PAINTER_MIN = 20        # submissions to grade for a painter of its own
READY_SECONDS = 0.5     # how long a painter still importing is awaited at the end, before drawing here
DRAW_SECONDS = 5.0      # how long its drawing is awaited (at normal priority: ~0.07 s)
_STARTED: list = []     # the painter, or the importing thread


def start(count: int) -> None:
    """Before a class's `count` submissions are graded: have matplotlib imported meanwhile."""
    if _STARTED:
        return
    if count >= PAINTER_MIN and hasattr(os, "sched_setscheduler"):
        _STARTED.append(_Painter())
    else:
        thread = threading.Thread(target=_import, name="autograder-prewarm", daemon=True)
        thread.start()
        _STARTED.append(thread)


def ask(summary: dict) -> None:
    """Have the painter, if there is one, start drawing now: the grading process writes the other class
    files meanwhile."""
    from autograder.report.histogram import DRAWN_FROM

    if _STARTED and isinstance(_STARTED[0], _Painter) and not _STARTED[0].asked:
        painter = _STARTED[0]
        try:
            painter.conn.send({key: summary[key] for key in DRAWN_FROM})
            painter.asked = True
        except OSError:  # it died: drawn here
            pass


def draw(summary: dict) -> bytes:
    """The histogram's PNG: the painter's, if it answers in time, else drawn here."""
    from autograder.report.histogram import histogram_png

    ask(summary)
    started = _STARTED.pop() if _STARTED else None
    if isinstance(started, threading.Thread):
        started.join()  # no two threads import matplotlib at once
    elif started is not None:
        conn = started.conn
        try:
            # it says whether matplotlib imported: long since, in a class of any size on an idle enough machine
            if started.asked and conn.poll(READY_SECONDS) and conn.recv() and conn.poll(DRAW_SECONDS):
                return conn.recv_bytes()
        except (EOFError, OSError):  # it died: drawn here, where what is wrong is said
            pass
        finally:
            started.end()
    return histogram_png(summary)


def stop() -> None:
    """The batch is over: a painter not asked to draw (the histogram was up to date) ends now."""
    while _STARTED:
        started = _STARTED.pop()
        if isinstance(started, _Painter):
            started.end()


class _Painter:
    """The painter process, our end of its pipe, and whether it was asked to draw."""

    def __init__(self):
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_paint, args=(theirs,), name="autograder-histogram", daemon=True)
        with sigint_blocked():  # born deaf to Ctrl-C: the grading process stops it
            self.process.start()
        theirs.close()
        self.asked = False

    def end(self) -> None:
        self.conn.close()  # a waiting painter reads the end and exits
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _paint(conn) -> None:
    """The painter process: import at idle priority (saying whether it could), then draw what the grading
    process asks for, if it does, at normal priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importer = threading.Thread(target=_import, kwargs={"idle": True, "said_to": conn}, daemon=True)
    importer.start()
    try:
        drawn_from = conn.recv()
    except EOFError:  # not needed
        return
    importer.join()
    from autograder.report.histogram import histogram_png

    try:
        conn.send_bytes(histogram_png(drawn_from))
    except Exception:  # the grading process draws it then, and says what is wrong
        pass


def _import(idle: bool = False, said_to=None) -> None:
    if idle:  # this thread only (Linux: a thread's policy is its own); it may not go back
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        from autograder.report.histogram import histogram_png, import_matplotlib

        import_matplotlib()
        if idle:  # a first drawing loads the fonts (~0.1 s): a throwaway one, at idle priority too
            histogram_png({"histogram": {"edges": [0.0, 1.0], "counts": [1]}, "max_score": 1.0, "submissions": 1})
        imported = True
    except Exception:  # drawing will say what is wrong, where it is drawn
        imported = False
    if said_to is not None:
        with contextlib.suppress(OSError):
            said_to.send(imported)
