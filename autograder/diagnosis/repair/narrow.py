"""A student's file narrowed to what a repair looks at, and the repaired text put back into the whole file.

LibCST builds a Python object for every node it parses, visits and prints (~10 ms of CPU for a 5 KB
engine.py), and an operation's repair looks into one method of `Value`. So LibCST is given only what the repair
looks at, and the lines it changed are put back between the cut ones: the same text a repair of the whole file
writes.
- A repair that looks at nothing but the scope's functions: the methods outside the scope are cut from the
  top-level classes holding one of its functions (the comments and blank lines between methods kept).
- A repair that reads a class as a whole (`leave_class` alone: the reflected method added after the
  operation's, Neuron's __call__ mended from what its __init__ keeps): those classes are kept whole.
- Where the scope names its classes (Neuron's __call__, not any class's), the other classes are cut whole: a
  repair looks into a scope's function only in those classes.
- The top-level statements that hold none of the scope's functions are cut too (a repair visits only those that
  do: apply._visit), but for the one holding the file's first indented line, and not where that would change
  the file's first line ending (LibCST writes new lines with the indent and the line ending it reads first in
  the text it parses).
- A file with none of the scope's classes or functions is no repair's to mend (`NOTHING`): it is not parsed.
A repair that looks `everywhere` (or overrides more than `leave_class`) is made on the whole files; so is any
whose changed lines touch a cut (the side of it they belong on is not known). Text only, read with the standard
library's `ast` and `tokenize` (the first tokens only): nothing of it runs.
"""
from __future__ import annotations

import ast
import difflib
import functools
import io
import re
import tokenize
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
    return narrows_to_classes(repair) and repair.leave_class is Repair.leave_class


def narrows_to_classes(repair: type) -> bool:
    """Whether the repair looks only into the classes holding the scope's functions, each as a whole (its own
    leave_class, nothing else of _WHOLE), and so may run on a file narrowed to those classes."""
    return not repair.everywhere and all(getattr(repair, name) is getattr(Repair, name)
                                         for name in _WHOLE if name != "leave_class")


NOTHING = object()  # narrowed(): no class or function of the scope in the file


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


def narrowed(text: str, where: Scope, whole_classes: bool = False):
    """The text with the methods outside `where` cut from the top-level classes holding one of its functions (of
    where.classes, where it names some), and the top-level statements holding none cut too (None: a text `ast`
    can't read, or nothing to cut).
    whole_classes: those classes kept whole. NOTHING where the text holds none of them and no function of the
    scope: nothing there for a repair to mend."""
    tree = _tree(text)
    if tree is None:
        return None
    cut: set[int] = set()
    top: set[int] = set()
    kept = False
    for line in tree.body:
        if isinstance(line, ast.ClassDef) and set(_methods(line)) & where.names and \
                not (where.classes and line.name not in where.classes):
            kept = True
            for method in line.body:
                if not whole_classes and isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                        and method.name not in where.names:
                    cut.update(_span(method))
        elif isinstance(line, (ast.FunctionDef, ast.AsyncFunctionDef)) and line.name in where.names:
            kept = True
        else:
            top.update(_span(line))
    if not kept:
        return NOTHING
    first = _first_indent(text) if top else -1
    if first != -1:  # never the first indented line: LibCST writes the lines a repair adds with its indent
        _keep_line(tree, first, cut, top)
        found = _cut(lines(text), cut | top) if top else None
        if found is not None and _newline(found.text) == _newline(text):
            return found
    return _cut(lines(text), cut) if cut else None


def _keep_line(tree: ast.Module, first: int | None, cut: set[int], top: set[int]) -> None:
    """The statement holding line `first` (from 1) taken out of the cuts: a top-level statement whole, but of a
    class that is cut (no repair looks into it) only its header and the statement holding the line."""
    holder = next((line for line in tree.body if first is not None and line.lineno <= first <= line.end_lineno), None)
    if holder is None:
        return
    inner = next((s for s in getattr(holder, "body", ()) if s.lineno <= first <= s.end_lineno), None)
    if first - 1 in top:
        top -= set(_span(holder))
        if isinstance(holder, ast.ClassDef) and inner is not None:
            top.update(n for s in holder.body if s is not inner for n in _span(s))
    elif first - 1 in cut and inner is not None:  # in a method cut from a class kept
        cut -= set(_span(inner))


def _cut(all_lines: list[str], cut: set[int]) -> Narrowed:
    kept: list[str] = []
    cut_before: list[str] = [""]
    for i, line in enumerate(all_lines):
        if i in cut:
            cut_before[-1] += line
        else:
            kept.append(line)
            cut_before.append("")
    return Narrowed("".join(kept), tuple(kept), tuple(cut_before))


def _span(node: ast.stmt) -> range:
    """The lines (from 0) of a statement, its decorators' included."""
    return range(min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))]) - 1, node.end_lineno)


@functools.lru_cache(maxsize=8)
def _first_indent(text: str) -> int | None:
    """The line (from 1) of the text's first INDENT token, as Python's tokenizer finds it (None: there is none;
    -1: the tokenizer can't read it). The tokens are read only that far."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.INDENT:
                return token.start[0]
    except (tokenize.TokenError, SyntaxError):
        return -1
    return None


def _newline(text: str) -> str | None:
    """The first line ending (LibCST's default newline is the file's first)."""
    found = _NEWLINE.search(text)
    return found.group(0) if found else None


_NEWLINE = re.compile(r"\r\n?|\n")


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
