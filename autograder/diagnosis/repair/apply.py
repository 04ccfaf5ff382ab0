"""A task's named mistakes repaired in the text of the student's files: the new texts, and what each repair
changed where. Text only: LibCST parses the files and prints them back; nothing of them runs here.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from autograder.diagnosis.repair import backward, locate, narrow, nn, ops, ops_wiring, train
from autograder.tasks import EVERY_OP

# a file past this is not parsed (a student's engine.py is a few KB), nor the files past the total: a repair
# proves nothing there
MAX_BYTES = 200_000
MAX_TOTAL = 1_000_000


@dataclass(frozen=True)
class Edit:
    mistake: str
    file: str                 # the file's path under the package: "engine.py", "ops/mul.py"
    lines: tuple[int, ...]    # the lines of the student's text it changed (or added after)
    change: str               # in words: "`+=` in place of `=`"
    now: str                  # the first line it wrote, as it reads after the repair


def repairs(task: str, mistake: str) -> tuple[type, ...]:
    """The repairs a mistake implies in a task ((): none the kit knows)."""
    if task in EVERY_OP:
        found = ops.REPAIRS.get(mistake) or ops_wiring.REPAIRS.get(mistake, ())
    else:
        found = {**backward.REPAIRS, **train.REPAIRS.get(task, {}), **nn.REPAIRS.get(task, {})}.get(mistake, ())
        if task != "backward" and mistake in backward.REPAIRS:
            found = ()
    return tuple(type(r.__name__, (r,), {"task": task}) for r in found)


def repaired(package: Path, task: str, mistakes: tuple[str, ...]) -> tuple[dict[str, str], dict[str, list[Edit]]]:
    """(path -> repaired text, for the files changed; mistake -> its edits, [] where no spot was found)."""
    originals = _texts(package)
    try:
        return _narrowly(originals, task, mistakes)
    except _Whole:
        return _wholly(originals, task, mistakes)


class _Whole(Exception):
    """The repair is made on the whole files instead (narrow.py)."""


def _narrowly(originals: dict[str, str], task: str, mistakes: tuple[str, ...]):
    """repaired(), each file narrowed to the methods of the task's scope (narrow.py): the same texts and edits
    as _wholly; _Whole where it can't say so (a repair that looks at a class as a whole, a method bound under
    another name, a file `ast` or LibCST can't read, a change beside a cut)."""
    chosen = list(repairs(task, m) for m in mistakes)
    every = [r for found in chosen for r in found]
    if all(narrow.narrows(r) for r in every):
        whole_classes = False
    elif all(narrow.narrows_to_classes(r) for r in every):
        whole_classes = True  # a repair reads a class whole: the classes holding the scope, uncut
    else:
        raise _Whole
    first = _chosen(originals, locate.needles(task))
    where = locate.scope_known(task, narrow.defined([originals[rel] for rel in first], locate.method_name(task))
                               if task not in locate.NN else None)
    if where is None:
        raise _Whole
    rest = _chosen({rel: t for rel, t in originals.items() if rel not in first}, [f"def {name}" for name in where.names])
    texts: dict[str, str] = {}
    edits: dict[str, list[Edit]] = {m: [] for m in mistakes}
    for mistake, found in zip(mistakes, chosen):
        for repair in found:
            for rel in first + rest:
                before = texts.get(rel) or originals[rel]
                if not _may_hold(where, before):
                    continue
                part = narrow.narrowed(before, where, whole_classes)
                if part is narrow.NOTHING:  # no class or function of the scope here: nothing of it to mend
                    continue
                transformer = repair(where)
                try:
                    module = cst.parse_module(part.text if part else before)
                except (cst.ParserSyntaxError, RecursionError):
                    raise _Whole from None
                written = _visit(module, transformer, where)
                if not transformer.marked:
                    continue
                after = narrow.put_back(part, written.code) if part else written.code
                if after is None:
                    raise _Whole
                if after == before:
                    continue
                texts[rel] = after
                lines, now = _changed(before, after)
                edits[mistake].append(Edit(mistake, rel, lines, transformer.change, now))
    return texts, edits


def _chosen(texts: dict[str, str], needles) -> list[str]:
    """The files _parsed would parse (their text holds a needle, within MAX_TOTAL), in order."""
    found, total = [], 0
    for rel, text in texts.items():
        if any(needle in text for needle in needles) and (total := total + len(text)) <= MAX_TOTAL:
            found.append(rel)
    return found


def _wholly(originals: dict[str, str], task: str, mistakes: tuple[str, ...]):
    """repaired(), each file parsed, visited and printed whole."""
    sources = _parsed(originals, locate.needles(task))
    where = locate.scope(task, list(sources.values()))
    sources.update(_parsed({rel: t for rel, t in originals.items() if rel not in sources},
                           [f"def {name}" for name in where.names]))
    texts: dict[str, str] = {}
    edits: dict[str, list[Edit]] = {m: [] for m in mistakes}
    for mistake in mistakes:
        for repair in repairs(task, mistake):
            for rel, module in sources.items():
                before = texts.get(rel) or originals[rel]
                if not _may_hold(where, before):
                    continue
                transformer = repair(where)
                written = _visit(module if rel not in texts else cst.parse_module(before), transformer, where)
                if not transformer.marked or (after := written.code) == before:  # printed only where it marked
                    continue
                texts[rel] = after
                lines, now = _changed(before, after)
                edits[mistake].append(Edit(mistake, rel, lines, transformer.change, now))
    return texts, edits


def _texts(package: Path) -> dict[str, str]:
    """The package's Python files' texts (a file too large or not UTF-8 is left out: nothing proven there)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        if path.is_file() and not path.is_symlink() and path.stat().st_size <= MAX_BYTES:
            try:
                found[path.relative_to(package).as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    return found


def _parsed(texts: dict[str, str], needles) -> dict[str, cst.Module]:
    """The files whose text holds one of the needles (a name the task's code needs), parsed."""
    found, total = {}, 0
    for rel, text in texts.items():
        if any(needle in text for needle in needles) and (total := total + len(text)) <= MAX_TOTAL:
            try:
                found[rel] = cst.parse_module(text)
            except (cst.ParserSyntaxError, RecursionError):
                continue
    return found


def _visit(module: cst.Module, transformer, where) -> cst.Module:
    """The module through the transformer, which visits only the top-level classes and functions that hold a
    function of the scope (the rest of a student's file is left as it is, unvisited)."""
    body = [line.visit(transformer) if _holds(line, where) else line for line in module.body]
    return module.with_changes(body=body)


def _holds(line, where) -> bool:
    if isinstance(line, cst.FunctionDef):
        return line.name.value in where.names
    return isinstance(line, cst.ClassDef) and any(
        isinstance(inner, cst.FunctionDef) and inner.name.value in where.names for inner in line.body.body)


def _may_hold(where, text: str) -> bool:
    return any(f"def {name}" in text for name in where.names)


def _changed(before: str, after: str) -> tuple[tuple[int, ...], str]:
    """The lines of `before` a repair changed (a line added: the one it follows), and the first line it wrote."""
    a, b = before.splitlines(), after.splitlines()
    lines: list[int] = []
    written = ""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        lines += [n + 1 for n in range(i1, i2) if a[n].strip()] if i2 > i1 else [max(i1, 1)]
        new = [line.strip() for line in b[j1:j2] if line.strip()]
        written = written or (new[0] if new else "")
    return tuple(sorted(set(lines))), written
