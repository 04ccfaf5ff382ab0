"""Turn a solution file into an exercise: each solution block becomes a stub.

A block is

    # BEGIN SOLUTION <task id>: <one line saying what to write>
    ...the code students write...
    # END SOLUTION

and becomes, at the marker's indentation,

    raise NotImplementedError("<task id>: <one line saying what to write>")
"""
from __future__ import annotations

import re

from autograder.errors import UserError
from autograder.tasks import TITLE

BEGIN = re.compile(r"^(?P<indent>[ \t]*)#\s*BEGIN SOLUTION\b(?P<rest>.*)$")
END = re.compile(r"^[ \t]*#\s*END SOLUTION\b")
HEADER = re.compile(r"^\s*(?P<task>[a-z_]+)\s*:\s*(?P<what>\S.*?)\s*$")


class MarkerError(UserError, ValueError):
    """A solution file whose markers are unbalanced, nested or malformed."""


def strip_solutions(text: str, filename: str = "<solution>") -> str:
    """The exercise version of a solution file's text."""
    out: list[str] = []
    open_at: int | None = None
    for lineno, line in enumerate(text.splitlines(keepends=True), start=1):
        begin = BEGIN.match(line)
        if begin:
            if open_at is not None:
                raise MarkerError(f"{filename}:{lineno}: BEGIN SOLUTION nested inside the block opened at line {open_at}")
            out.append(_stub(begin, filename, lineno))
            open_at = lineno
        elif END.match(line):
            if open_at is None:
                raise MarkerError(f"{filename}:{lineno}: END SOLUTION without a BEGIN SOLUTION")
            open_at = None
        elif open_at is None:
            out.append(line)
    if open_at is not None:
        raise MarkerError(f"{filename}:{open_at}: BEGIN SOLUTION is never closed by END SOLUTION")
    return "".join(out)


def stub_line(line: str, filename: str = "<solution>", lineno: int = 0) -> str:
    """The stub that replaces the block a `# BEGIN SOLUTION <task>: <what>` line opens."""
    begin = BEGIN.match(line)
    if not begin:
        raise MarkerError(f"{filename}:{lineno}: not a BEGIN SOLUTION line")
    return _stub(begin, filename, lineno)


def _stub(begin: re.Match, filename: str, lineno: int) -> str:
    header = HEADER.match(begin["rest"])
    if not header:
        raise MarkerError(f"{filename}:{lineno}: write the marker as '# BEGIN SOLUTION <task id>: <what to write>'")
    task = header["task"]
    if task not in TITLE:  # a task of the base assignment, or a variant's extra operation
        raise MarkerError(f"{filename}:{lineno}: unknown task id {task!r}; the task ids are {', '.join(TITLE)}")
    message = f"{task}: {header['what']}"
    return f'{begin["indent"]}raise NotImplementedError({message!r})\n'
