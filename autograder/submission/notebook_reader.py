"""A notebook read outside the grading process: its JSON and its cells are the student's text.

Parsing a student's notebook costs what the student chooses: a deeply nested document, millions of
tiny JSON objects or a many-megabyte cell can take a process to gigabytes or past Python's recursion
limit. So the grading process never parses one: `read_notebook` runs notebook.py's conversion in a
process of its own under an address-space, CPU and wall-time limit, which writes the module and
its cell map (what load.py and child/cells.py read) and answers in one line: the notes on what it
left out (a cell too large, notebook.py), or why it can't. Whatever it meets ends as one
NotebookError (one line: the row says why), never as a crash of the grading.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from autograder.submission.notebook import NotebookError

MEMORY_MB = 768      # the reader's address space: a 64 MiB notebook of ordinary cells and outputs fits, and one of 192 MiB
                     # (notebook.MAX_BYTES) whose outputs are long texts or images (measured: 238 MiB, 500 MB resident)
CPU_SECONDS = 20
WALL_SECONDS = 30
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding `autograder`


def read_notebook(path: Path, module: Path, table: Path) -> list[str]:
    """Write the notebook at path as one module (module) and its cell map (table), and return the notes on
    what was left out of it; or raise NotebookError."""
    name = Path(path).name
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")])),
           "PYTHONIOENCODING": "utf-8"}
    # `-m` puts the working folder first on the reader's path: run it in the kit's own, never where the grader
    # was started (a class folder may hold a student's folder named `autograder`), with the paths made absolute
    paths = [os.path.abspath(p) for p in (path, module, table)]
    try:
        done = subprocess.run([sys.executable, "-m", __name__, *paths], cwd=_PACKAGE_ROOT,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=WALL_SECONDS, env=env,
                              preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        raise NotebookError(f"{name}: reading it took longer than {WALL_SECONDS} s") from None
    answer = _answer(done.stdout)
    if done.returncode == 0 and isinstance(answer, dict) and isinstance(answer.get("notes"), list):
        return [str(note) for note in answer["notes"]]
    if isinstance(answer, str) and answer.startswith("error:"):
        raise NotebookError(answer.removeprefix("error:"))
    if b"MemoryError" in done.stderr[-2000:]:
        raise NotebookError(f"{name}: too large to read within {MEMORY_MB} MiB of memory")
    if done.returncode < 0:
        raise NotebookError(f"{name}: reading it was stopped (signal {-done.returncode}: past the reader's "
                            f"limit of {CPU_SECONDS} s of CPU or {MEMORY_MB} MiB of memory)")
    raise NotebookError(f"{name}: could not be read as a notebook (the reader stopped with exit code {done.returncode})")


def _answer(stdout: bytes):
    try:
        return json.loads(stdout.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def _limits() -> None:
    """Between fork and exec: the reader's memory and CPU, and no core file."""
    for which, value in ((resource.RLIMIT_AS, MEMORY_MB << 20), (resource.RLIMIT_CPU, CPU_SECONDS),
                         (resource.RLIMIT_CORE, 0)):
        try:
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def _main(notebook: str, module: str, table: str) -> str | dict:
    """In the reader: convert, write both files, and say {"notes": [...]} or "error:<one line>"."""
    from autograder.submission.notebook import notebook_cells

    notes: list[str] = []
    try:
        source, cells = notebook_cells(Path(notebook), notes)
    except NotebookError as exc:
        return "error:" + str(exc)
    except RecursionError:
        return f"error:{Path(notebook).name}: nested too deeply to be a notebook"
    except MemoryError:
        return f"error:{Path(notebook).name}: too large to read within {MEMORY_MB} MiB of memory"
    # a lone surrogate ("\ud800" in the JSON) is no UTF-8: written as its escape, which in a string
    # literal means the same character (and elsewhere is the syntax error the character was)
    Path(module).write_text(source, encoding="utf-8", errors="backslashreplace")
    Path(table).write_text("".join(f"{number} {first} {last}\n" for number, first, last in cells), encoding="utf-8")
    return {"notes": notes}


if __name__ == "__main__":
    print(json.dumps(_main(*sys.argv[1:4])))
