"""A submission notebook as a Python module: its code cells, with nothing left to run a shell.

Shell escapes (`!cmd`, `x = !cmd`), line magics (`%cmd`, `x = %cmd`), help (`obj?`) and
cell magics (`%%bash`: the whole cell) become a comment, or `pass  # ...` when indented,
so line structure and blocks survive. The bodies of %%time, %%timeit and %%capture are
plain Python and are kept (their own escapes removed line by line). The grading tools' own
cells and calls (otter's, nbgrader's test cells) are left out: see tool_cells.py.

A code cell too large for a submission's code (a pasted data dump, say) is left out alone, with a
note naming it, and the rest of the notebook is graded, as nbgrader notes one cell and runs on; the
same for the largest cells while all the cells together would pass that limit. Outputs are never
run nor read into the module: a notebook of long outputs (a training log, plots) is read up to
MAX_BYTES, past the 64 MiB it once could be, the reader's memory and time limits (notebook_reader.py)
left to stop real bombs.
"""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

from autograder.files import UnreadableText, read_utf8
from autograder.submission.tool_cells import SKIPPED, drop_otter, grader_names, tool_cell

MARKER = "# [autograder: removed shell escape / magic]"
MAX_BYTES = 192 * 1024 * 1024   # the file: outputs of any size up to it are read past (the reader holds ~2x in memory)
CODE_BYTES = 1024 * 1024 - 64 * 1024   # all the code cells kept: the loader's limit of one file (1 MiB), less room
LEFT_OUT = "# [autograder: cell left out: {size} of code, more than a submission's code may be]"
PYTHON_BODY_MAGICS = {"time", "timeit", "capture"}
_ESCAPE = re.compile(
    r"^\s*(?:[!%?]"                                  # !cmd  %magic  ?obj
    r"|[\w.]+\s*\?\??\s*$"                           # obj?  obj??
    r"|(?:[\w.]+\s*,\s*)*[\w.]+\s*=\s*[!%])"         # x = !cmd   a, b = %magic
)


class NotebookError(ValueError):
    """A notebook that can't be read as one; the message is one line."""


def notebook_to_python(path: Path) -> str:
    """The notebook's code cells as one module's source, escapes and magics removed."""
    return notebook_cells(path)[0]


def notebook_cells(path: Path, notes: list[str] | None = None) -> tuple[str, list[tuple[int, int, int]]]:
    """The module's source and where each code cell stands in it: (cell number, first line, last
    line), 1-based and inclusive. The child runs the cells one after another as a notebook runs
    (child/cells.py): one that raises does not stop the next, as under nbgrader and otter.
    notes: where a line naming each cell left out (too large) is added."""
    path = Path(path)
    nb = _read(path)
    parts = ["# Code cells of a notebook; shell escapes, magics and the grading tools' cells removed by the autograder."]
    cells, line = [], 1  # the last line so far: the header's
    code = {number: cell for number, cell in enumerate(nb["cells"], 1) if cell.get("cell_type") == "code"}
    raw = {number: _text(cell.get("source", "")) for number, cell in code.items()}
    left_out = _too_large({number: len(text.encode("utf-8", "surrogatepass")) for number, text in raw.items()})
    for number, size in sorted(left_out.items()):
        if notes is not None:
            notes.append(f"{path.name}: cell {number} holds {_megabytes(size)} of code, more than a submission's "
                         "code may be: left out; the rest of the notebook is graded")
    sources = {number: convert_cell(text) for number, text in raw.items() if number not in left_out}
    names = grader_names(list(sources.values()))
    for number, cell in code.items():
        what = None if number in left_out else tool_cell(cell)
        body = (LEFT_OUT.format(size=_megabytes(left_out[number])) if number in left_out
                else SKIPPED.format(what=what) if what else drop_otter(sources[number], names))
        part = f"# In[{number}]:\n{body}"
        first = line + 3  # after the two blank lines that join the parts
        cells.append((number, first, first + part.count("\n")))
        line = first + part.count("\n")
        parts.append(part)
    return "\n\n\n".join(parts) + "\n", cells


def _too_large(sizes: dict[int, int]) -> dict[int, int]:
    """{cell: size} of the cells left out: each larger than the code's limit alone, then the largest
    (the later of two the same) while all the cells kept would pass it."""
    out = {number: size for number, size in sizes.items() if size > CODE_BYTES}
    kept = sum(size for number, size in sizes.items() if number not in out)
    for number, size in sorted(((n, s) for n, s in sizes.items() if n not in out), key=lambda c: (-c[1], -c[0])):
        if kept <= CODE_BYTES:
            break
        out[number], kept = size, kept - size
    return out


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def _read(path: Path):
    """The notebook as a dict with its cells. A well-formed v4 notebook is read as plain JSON; anything
    else goes through nbformat (older versions converted, errors explained), whose import alone
    takes about a second."""
    def fail(why: str) -> NotebookError:
        return NotebookError(" ".join(f"{path.name}: {why}".split()))

    try:
        text = read_utf8(path, max_bytes=MAX_BYTES).removeprefix("\ufeff")
    except UnreadableText as exc:
        raise fail(str(exc)) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(raw, dict) or "nbformat" not in raw:
        raise fail("not a Jupyter notebook (no nbformat version)")
    nb = raw if _plain_v4(raw) else _through_nbformat(text, fail)
    metadata = nb.get("metadata") or {}
    language = ((metadata.get("kernelspec") or {}).get("language")
                or (metadata.get("language_info") or {}).get("name") or "python")
    if str(language).lower() not in ("python", "python3", "ipython"):
        raise fail(f"not a Python notebook (language {str(language)[:40]})")
    return nb


CELL_TYPES = {"code", "markdown", "raw"}


def _plain_v4(raw: dict) -> bool:
    """A v4 notebook whose every cell has a known type, a source and metadata (what the kit reads)."""
    cells = raw.get("cells")
    return (raw.get("nbformat") == 4 and isinstance(raw.get("metadata"), dict) and isinstance(cells, list)
            and all(isinstance(c, dict) and c.get("cell_type") in CELL_TYPES and isinstance(c.get("metadata"), dict)
                    and (isinstance(c.get("source"), str)
                         or (isinstance(c.get("source"), list) and all(isinstance(x, str) for x in c["source"])))
                    for c in cells))


def _through_nbformat(text: str, fail):
    try:
        import nbformat  # an optional dependency: only unusual notebooks need it
    except ImportError:
        raise NotebookError("reading this notebook needs nbformat: pip install 'backprop-kit[notebooks]'") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        raise fail(f"not a valid notebook ({exc.message})") from None
    except Exception as exc:  # nbformat's reader raises several kinds for a bad document
        raise fail(f"not a valid notebook ({exc})") from None
    return nb


def convert_cell(source: str | list) -> str:
    """One code cell's source with escapes and magics replaced, line for line."""
    if isinstance(source, list):
        source = "".join(source)
    lines = source.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = (lines[first].lstrip()[2:].split() or [""])[0]
        if name not in PYTHON_BODY_MAGICS:
            return "\n".join(MARKER for _ in lines)
        lines[first] = MARKER
        return "\n".join(lines[: first + 1] + _convert_lines(lines[first + 1:]))
    return "\n".join(_convert_lines(lines))


def _convert_lines(lines: list[str]) -> list[str]:
    out: list[str] = []
    lexer = _Lexer()
    escaped_continues = False
    for line in lines:
        if escaped_continues or (lexer.at_statement_start and _ESCAPE.match(line)):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}pass  {MARKER}" if indent and not escaped_continues else
                       f"{indent}{MARKER}")
            escaped_continues = line.rstrip().endswith("\\")
            continue
        lexer.feed(line)
        out.append(line)
    return out


class _Lexer:
    """Just enough of Python's tokenizer to know where a statement may start:
    not inside a string, brackets or a backslash continuation."""

    def __init__(self) -> None:
        self.quote: str | None = None  # the open string's delimiter: ' " ''' or \"\"\"
        self.depth = 0
        self.continued = False

    @property
    def at_statement_start(self) -> bool:
        return self.quote is None and self.depth == 0 and not self.continued

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        self.continued = False
        while i < n:
            c = line[i]
            if self.quote:
                if c == "\\":
                    i += 2
                    continue
                if line.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                    continue
                i += 1
                continue
            if c == "#":
                break
            if c in "'\"":
                self.quote = c * 3 if line.startswith(c * 3, i) else c
                i += len(self.quote)
                continue
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth = max(0, self.depth - 1)
            elif c == "\\" and i == n - 1:
                self.continued = True
            i += 1
        if self.quote in ("'", '"') and not line.endswith("\\"):
            self.quote = None  # an unterminated one-line string: a syntax error; start afresh
