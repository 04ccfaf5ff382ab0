"""The class's histogram, drawn by a process that imports matplotlib on CPU the grading leaves idle.

Importing matplotlib costs ~0.45 s of CPU, drawing the histogram ~0.07 s. A thread of the grading process
importing it during the batch takes that CPU from the workers (and the grading process's GIL from storing
their results). So, for a class of at least PAINTER_MIN submissions to grade, a process of its own (the
painter) imports it in a thread at SCHED_IDLE priority, which runs only when a core would otherwise idle
(a batch's workers and their sandboxed children wait on each other now and then), and at the end draws the
histogram at normal priority with report/histogram.py, while the grading process writes the other class
files. One still importing then is awaited while it gets CPU (the workers are done: it has the cores); one
starved (a machine busy with other work can starve an idle thread: under 30% of a core in a STEP_SECONDS),
or that died, leaves the drawing to the grading process, as without a painter: the same function, the same
bytes. A smaller class is over before idle moments add up to an import: matplotlib is imported by a
background thread of the grading process, as before.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading

from autograder.batch.sigint import sigint_blocked

PAINTER_MIN = 20        # submissions to grade for a painter of its own
STEP_SECONDS = 0.1      # a painter still importing at the end is awaited while it gets CPU in each step
READY_SECONDS = 5.0     # and this long at most (where its CPU can't be read: 0.5 s)
END_SECONDS = 1.0       # a painter not asked to draw is given this long to end on its own, then killed
DRAW_SECONDS = 5.0      # its drawing, at normal priority (~0.07 s), is awaited this long at most
_STARTED: list = []     # the painter, or the importing thread


def start(count: int) -> None:
    """Before a class's `count` submissions are graded: have matplotlib imported meanwhile."""
    if _STARTED or _imported():  # already here (a process grading again): drawn here
        return
    if count >= PAINTER_MIN and hasattr(os, "sched_setscheduler"):
        try:
            _STARTED.append(_Painter())
            return
        except OSError:  # no process to be had (a limit on them): a thread, as for a small class
            pass
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
            if started.asked and started.ready() and conn.poll(DRAW_SECONDS):
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

    def ready(self) -> bool:
        """Has matplotlib imported? Waits while the painter is importing and getting CPU for it."""
        ticks = _cpu_ticks(self.process.pid)
        if ticks is None:  # its CPU can't be read here: a short wait
            return self.conn.poll(0.5) and bool(self.conn.recv())
        waited = 0.0
        while not self.conn.poll(STEP_SECONDS):
            waited += STEP_SECONDS
            now = _cpu_ticks(self.process.pid)
            if now is None or now - ticks < _STEP_TICKS or waited >= READY_SECONDS:
                return False  # gone, starved (drawing here is quicker then), or too long: drawn here
            ticks = now
        return bool(self.conn.recv())

    def end(self) -> None:
        self.conn.close()  # a waiting painter reads the end and exits
        self.process.join(timeout=END_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


# a painter awaited must have had at least 30% of a core in each step: less, and the grading process, which
# would have its share of the machine, draws it sooner (an idle thread is starved by any other process)
_STEP_TICKS = max(1, round(0.3 * STEP_SECONDS * os.sysconf("SC_CLK_TCK"))) if hasattr(os, "sysconf") else 1


def _imported() -> bool:
    return "matplotlib.figure" in sys.modules


def _cpu_ticks(pid: int) -> int | None:
    """The CPU a process has used so far, in clock ticks (Linux's /proc; None elsewhere, or once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()  # after the command's name, which may hold anything
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def _paint(conn) -> None:
    """The painter process: import at idle priority (saying whether it could), then draw what the grading
    process asks for, if it does, at normal priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importer = threading.Thread(target=_import, kwargs={"idle": True, "said_to": conn}, daemon=True)
    importer.start()
    try:
        drawn_from = conn.recv()
    except (EOFError, OSError):  # not needed: the grading process closed its end (unread: reset)
        return
    importer.join()
    from autograder.report.histogram import histogram_png

    try:
        conn.send_bytes(histogram_png(drawn_from))
    except Exception:  # the grading process draws it then, and says what is wrong (or is gone)
        pass


def _import(idle: bool = False, said_to=None) -> None:
    if idle:  # this thread only (Linux: a thread's policy is its own); it may not go back
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        from autograder.report.histogram import import_matplotlib

        # no throwaway drawing ahead: matplotlib's fonts are loaded by the import (font_manager), and a first
        # drawing costs what a second does (~0.05 s of CPU each), so one would only add CPU to the batch
        import_matplotlib()
        imported = True
    except Exception:  # drawing will say what is wrong, where it is drawn
        imported = False
    if said_to is not None:
        with contextlib.suppress(OSError):
            said_to.send(imported)
