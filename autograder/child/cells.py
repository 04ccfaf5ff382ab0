"""Run a notebook's code cells one after another, as a notebook runner does.

Standard library only: this runs in the sandboxed child. The autograder turns a notebook into
one module (micrograd/engine.py) and writes beside it where each code cell stands in it
(engine.cells: one "number first last" line per cell, 1-based, inclusive). A cell that raises
is reported and the next cell runs, as nbgrader and otter run a notebook (nbclient's
allow_errors), so an exploratory cell that fails does not cost the engine defined above it.
A cell that runs long (a training demo) is stopped, so that the import's time limit is not
spent on it, and the next cell runs. A cell that imports a forbidden library (torch, to compare
with as the lecture does) is one that raised, like a file of a folder submission that the engine
never loads: the library is not there anyway, so no other cell can compute with it.
"""
import os
import sys
import time
import types

SUFFIX = ".cells"
KEPT = 20        # messages of cells that raised kept for the report (a notebook may have thousands of cells)
PER_CELL = 0.5    # of the import's time limit: the most one cell may take (the lecture's net trains ~1,000 steps a second)
ALL_CELLS = 0.8   # of the import's time limit: all cells together, leaving the rest for the import's reply


class CellStopped(BaseException):
    """Raised in a cell that ran past its time (a BaseException: `except Exception` in it does not stop it)."""


def cell_map(path):
    """[(number, first, last)] from the .cells file beside the module at `path`, or None."""
    table = path[:-3] + SUFFIX
    if not os.path.isfile(table):
        return None
    with open(table, encoding="utf-8") as f:
        return [tuple(int(x) for x in line.split()) for line in f if line.strip()]


def run_cells(name, path, cells, describe, seconds=None):
    """The module `name` made from the cells of the file at `path`, what the first KEPT cells that raised
    or were stopped said (describe(exc) -> "hw.ipynb:12: NameError: ..."), and how many did. seconds:
    the import's time limit (None: no cell is stopped)."""
    module = types.ModuleType(name)
    module.__file__ = path
    module.__package__ = name.rpartition(".")[0]
    module.display = _display  # what Jupyter gives every notebook without an import: `display(draw_dot(L))`
    sys.modules[name] = module
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failed, count = [], 0
    timer = _Timer(seconds) if seconds else None
    try:
        for number, first, last in cells:
            source = "\n" * (first - 1) + "\n".join(lines[first - 1:last]) + "\n"  # line numbers as in the file
            try:
                try:
                    if timer:
                        timer.start()
                    exec(compile(source, path, "exec"), module.__dict__)
                finally:
                    if timer:
                        timer.stop()
            except CellStopped:
                said = f"{timer.why()} (grading needs what your cells define, not a demo's run)"
            except BaseException as exc:  # noqa: B036 - a cell's SystemExit is the student's too
                said = describe(exc)
            else:
                continue
            count += 1
            if len(failed) < KEPT:
                failed.append(f"cell {number}: {said}")
    finally:
        if timer:
            timer.close()
    return module, failed, count


class _Timer:
    """SIGALRM in the running cell when it has had its share of the import's time."""

    def __init__(self, seconds):
        import signal  # here, for a notebook only: signal imports enum, collections and functools (slow)

        self.signal = signal
        self.per_cell = seconds * PER_CELL
        self.all_cells = seconds * ALL_CELLS
        self.deadline = time.monotonic() + self.all_cells
        self.previous = signal.signal(signal.SIGALRM, _stop)
        self.cell_limit = True  # the running cell's own limit binds (not all the cells' together)

    def start(self):
        left = self.deadline - time.monotonic()
        self.cell_limit = self.per_cell <= left
        self.signal.setitimer(self.signal.ITIMER_REAL, max(min(self.per_cell, left), 0.001))

    def why(self) -> str:
        """Which limit stopped the cell, in numbers that are the same on every run (a report must be)."""
        if self.cell_limit:
            return f"stopped after {self.per_cell:g} s, a cell's time limit"
        return f"stopped when all the cells together reached their time limit of {self.all_cells:g} s"

    def stop(self):
        self.signal.setitimer(self.signal.ITIMER_REAL, 0)

    def close(self):
        self.stop()
        self.signal.signal(self.signal.SIGALRM, self.previous)


def _stop(signum, frame):
    raise CellStopped()


def _display(*objects, **options):
    """IPython's display(), which a notebook calls without importing it: nothing to show here."""
    return None
