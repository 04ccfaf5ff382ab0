"""A task's named mistakes repaired in the text of the student's files: the new texts, and what each repair
changed where. Text only: LibCST parses the files and prints them back; nothing of them runs here.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper

from autograder.diagnosis.repair import backward, locate, nn, ops, ops_wiring, train
from autograder.tasks import EVERY_OP

# a file past this is not parsed (a student's engine.py is a few KB): a repair proves nothing there
MAX_BYTES = 200_000


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
    sources = {}
    for path in sorted(package.rglob("*.py")):
        if path.is_file() and not path.is_symlink() and path.stat().st_size <= MAX_BYTES:
            try:
                text = path.read_text(encoding="utf-8")
                sources[path.relative_to(package).as_posix()] = (text, cst.parse_module(text))
            except (UnicodeDecodeError, cst.ParserSyntaxError, RecursionError):
                continue
    where = locate.scope(task, [module for _, module in sources.values()])
    texts: dict[str, str] = {}
    edits: dict[str, list[Edit]] = {m: [] for m in mistakes}
    for mistake in mistakes:
        for repair in repairs(task, mistake):
            for rel, (original, module) in sources.items():
                before = texts.get(rel, original)
                current = module if rel not in texts else cst.parse_module(before)
                transformer = repair(where)
                after = MetadataWrapper(current).visit(transformer).code
                if not transformer.lines or after == before:
                    continue
                texts[rel] = after
                edits[mistake].append(Edit(mistake, rel, tuple(sorted(set(transformer.lines))), transformer.change,
                                           _first_written(before, after)))
    return texts, edits


def _first_written(before: str, after: str) -> str:
    a, b = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        written = [line.strip() for line in b[j1:j2] if line.strip()] if tag in ("replace", "insert") else []
        if written:
            return written[0]
    return ""
