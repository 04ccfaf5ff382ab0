"""The otter edition's tests/ folder: the student copy's tests as files, for `otter check FILE -q TASK`.

otter assign keeps the tests in the notebook's metadata (`tests: files: false`), so that a notebook handed
out on its own still runs its checks: otter's grader.check falls back to the metadata when there is no
tests/ folder. otter's command line does not: it reads tests/TASK.py, and divides the points of the tests
that passed by those possible, which the metadata's case tests (worth 0) would make 0/0. So the kit writes
tests/ beside the master notebook, which `files:` copies to dist/student: per question, the same public
tests otter assign puts in the student copy's metadata (its doctest form of each test cell), with no points
given, which otter resolves to 1/n for each of a question's n tests. Grading never reads it: `otter run`
replaces the submission's tests/ with the autograder's own (every test, the master's points).
"""
from __future__ import annotations

import ast
import pprint
import re
from pathlib import Path

import nbformat

from autograder.files import write_text_atomic

HEADER = ("# backprop-kit: {name}'s public tests, for `otter check <notebook> -q {name}`: the notebook's own checks,\n"
          "# worth 1 together (no points given); grading uses the autograder's tests, not these\n")


def student_tests(master: nbformat.NotebookNode) -> dict[str, dict]:
    """Each question's public tests in otter's OK format (as otter assign writes them), by question name."""
    tests: dict[str, list[str]] = {}
    question, inside = None, False
    for cell in master.cells:
        source = cell.source
        if cell.cell_type == "raw" and source.startswith("# BEGIN QUESTION"):
            question = re.search(r"^name:\s*(\S+)", source, flags=re.M).group(1)
            tests[question] = []
        elif cell.cell_type == "raw" and source.strip() in ("# BEGIN TESTS", "# END TESTS"):
            inside = source.strip() == "# BEGIN TESTS"
        elif inside and cell.cell_type == "code" and not _hidden(source):
            tests[question].append(_doctest(source, _output(cell)))
    return {name: {"name": name, "points": None,
                   "suites": [{"cases": [{"code": code, "hidden": False, "locked": False} for code in codes],
                               "scored": True, "setup": "", "teardown": "", "type": "doctest"}]}
            for name, codes in tests.items() if codes}


def write_student_tests(dest: Path, master: nbformat.NotebookNode) -> list[Path]:
    """dest/<question>.py for each question with public tests, as otter writes a test file."""
    written = []
    for name, test in student_tests(master).items():
        path = dest / f"{name}.py"
        write_text_atomic(path, HEADER.format(name=name) + "OK_FORMAT = True\n\ntest = "
                          + pprint.pformat(test, indent=4, width=200) + "\n")
        written.append(path)
    return written


def _hidden(source: str) -> bool:
    """otter's rule: a test is hidden when its first line is a comment with the word hidden."""
    first = source.split("\n", 1)[0]
    return first.lstrip().startswith("#") and bool(re.search(r"\bhidden\b", first, flags=re.I))


def _output(cell) -> str:
    """The test's expected output, as otter reads it from the cell's outputs."""
    text = ""
    for output in cell.get("outputs", []):
        text += "".join(output.get("text", ""))
        shown = output.get("data", {}).get("text/plain")
        text += (shown[0] if isinstance(shown, list) else shown) if shown else ""
    return text


def _doctest(source: str, output: str) -> str:
    """otter assign's doctest of a test cell: the code as ast.unparse writes it (no comments), a line
    continuing a statement marked `...`, every other `>>>`, then the expected output."""
    lines: list[str] = []
    for line in ast.unparse(ast.parse(source)).split("\n"):
        if not line:
            continue
        goes_on = (line.startswith((" ", "\t")) or re.match(r"^except[\s\w]*:", line)
                   or line.startswith(("elif ", "else:", "finally:"))
                   or (lines and lines[-1].strip().endswith("\\")))
        lines.append(("... " if goes_on else ">>> ") + line)
    return "\n".join(lines + output.split("\n"))
