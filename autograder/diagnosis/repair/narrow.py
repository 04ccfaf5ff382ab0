"""A student's file narrowed to what a repair looks at, and the repaired text put back into the whole file.

LibCST builds a Python object for every node it parses, visits and prints (~10 ms of CPU for a 5 KB
engine.py), and an operation's repair looks into one method of `Value`. So the methods of a class holding
the task's scope that are outside that scope are left out of the text LibCST parses (their lines cut; the
comments and blank lines between methods kept), the repair runs on what is left, and the lines it changed
are put back between the cut ones: the same text a repair of the whole file writes. Only for a repair that
looks at nothing but the scope's functions (not a class as a whole: `leave_class`; not `everywhere`); where
the lines it changed touch a cut (the side of it they belong on is not known), nothing is put back and the
whole file is repaired instead. Text only, read with the standard library's `ast`: nothing of it runs.
"""
from __future__ import annotations

import ast
import difflib
import functools
import re
from dataclasses import dataclass

from autograder.diagnosis.repair.base import Repair, Scope

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")  # the lines as Python's tokenizer counts them
# what a repair may override and still be narrowed: none of these (each looks at more than the scope's functions)
_WHOLE = ("leave_class", "leave_ClassDef", "visit_ClassDef", "visit_Module", "leave_Module", "on_visit", "on_leave")


@dataclass(frozen=True)
class Narrowed:
    text: str                        # the file without the cut lines
    kept: tuple[str, ...]            # its lines
    cut_before: tuple[str, ...]      # the cut lines that stood before kept line i (the last: after every line)


def narrows(repair: type) -> bool:
    """Whether the repair looks only into the scope's functions (and so may run on a narrowed file)."""
    return not repair.everywhere and all(getattr(repair, name) is getattr(Repair, name) for name in _WHOLE)


def lines(text: str) -> list[str]:
    return _LINE.findall(text)


def defined(texts: list[str], name: str) -> bool | None:
    """Whether a top-level class of one of the texts has a method `name` (None: a text `ast` can't read)."""
    found = False
    for text in texts:
        tree = _tree(text)
        if tree is None:
            return None
        found = found or any(isinstance(line, ast.ClassDef) and name in _methods(line) for line in tree.body)
    return found


def narrowed(text: str, where: Scope) -> Narrowed | None:
    """The text with the methods outside `where` cut from the top-level classes holding one of its functions
    (None: a text `ast` can't read, or nothing to cut)."""
    tree = _tree(text)
    if tree is None:
        return None
    cut: set[int] = set()
    for line in tree.body:
        if isinstance(line, ast.ClassDef) and set(_methods(line)) & where.names:
            for method in line.body:
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name not in where.names:
                    first = min([method.lineno, *(d.lineno for d in method.decorator_list)])
                    cut.update(range(first - 1, method.end_lineno))
    if not cut:
        return None
    kept: list[str] = []
    cut_before: list[str] = [""]
    for i, line in enumerate(lines(text)):
        if i in cut:
            cut_before[-1] += line
        else:
            kept.append(line)
            cut_before.append("")
    return Narrowed("".join(kept), tuple(kept), tuple(cut_before))


def put_back(narrow: Narrowed, after: str) -> str | None:
    """The whole file with the narrowed text's changes (`after`) in it; None where a change touches a cut."""
    new = lines(after)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, narrow.kept, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [narrow.cut_before[i] + narrow.kept[i] for i in range(i1, i2)]
            continue
        if narrow.cut_before[i1] or any(narrow.cut_before[i] for i in range(i1 + 1, i2 + 1)):
            return None  # an edit beside a cut: which side of it the new lines belong on is not known
        out += new[j1:j2]
    return "".join(out) + narrow.cut_before[-1]


@functools.lru_cache(maxsize=8)  # a file is read by defined() and then narrowed(): parsed once (never changed here)
def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _methods(cls: ast.ClassDef) -> list[str]:
    return [m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
