"""What a stored grade depends on: the submission's bytes, the kit, the hidden seed, the rubric.

A grade in the store is reused only when all four match, so editing a
submission, upgrading the kit, changing the seed or the rubric regrades it.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, fields
from pathlib import Path

from autograder import __version__
from autograder.config import Rubric
from autograder.variants.assign import variants_digest

# derived files that grading (or a student's editor) may leave behind; not the submission
_SKIP_DIRS = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache"}
_SKIP_SUFFIXES = (".pyc", ".pyo")


@dataclass(frozen=True, slots=True)  # one a student, held through the run
class GradeKey:
    content: str
    kit_version: str
    hidden_seed: str
    rubric: str


def grade_key(path: Path, rubric: Rubric) -> GradeKey:
    return grade_keys([path], rubric)[0]


def grade_keys(paths, rubric: Rubric, contents=None) -> list[GradeKey]:
    """grade_key of each path, the rubric's digest made once. contents: the paths' content digests, if known
    (known_contents.py)."""
    seed = "none" if rubric.hidden_seed is None else str(rubric.hidden_seed)
    digest = rubric_digest(rubric)
    if contents is None:
        contents = [content_digest(Path(path)) for path in paths]
    return [GradeKey(content, __version__, seed, digest) for content in contents]


def content_digest(path: Path) -> str:
    """sha256 of a file's bytes, or of every file under a folder in sorted relative-path order.

    In a folder, each file contributes its relative path and its length before its bytes, so
    moving bytes between files or renaming one changes the digest. Symlinks count
    by their target, never followed. An unreadable path still gets a digest
    (of the error), and grading it will say what is wrong.
    """
    h = hashlib.sha256()
    try:
        if path.is_dir():
            for rel in _files_under(path):
                _add(h, rel, path / rel)
        else:
            h.update(path.read_bytes())
    except OSError as err:
        h.update(f"unreadable: {type(err).__name__}: {err}".encode())
    return h.hexdigest()


def _files_under(root: Path) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        for name in files + links:
            if not name.endswith(_SKIP_SUFFIXES):
                found.append(Path(folder, name).relative_to(root).as_posix())
    return sorted(found)


def _add(h, rel: str, path: Path) -> None:
    data = (b"link:" + os.readlink(path).encode()) if path.is_symlink() else path.read_bytes()
    name = rel.encode("utf-8", "surrogateescape")
    h.update(b"%d:%s%d:" % (len(name), name, len(data)))
    h.update(data)


def rubric_digest(rubric: Rubric) -> str:
    """A digest of everything in the rubric that can change a grade: points, tolerances,
    limits, activation, forbidden imports. (Not where it was read from; the seed is keyed apart.)"""
    data = {f.name: getattr(rubric, f.name) for f in fields(rubric) if f.name not in ("source", "hidden_seed")}
    data["points"] = dict(sorted(dict(rubric.points).items()))
    variants, _ = data.pop("variants"), data.pop("variant")
    if variants is not None:  # [variants]: what draws every student's variant (a student's is drawn from the id,
        data["variants"] = variants_digest(rubric)  # which the store keys apart)
    data["forbidden_imports"] = sorted(data["forbidden_imports"])
    if data["feedback"] == "fix":  # what a report shows of a named mistake ([feedback]): in the digest once set
        del data["feedback"]
    payload = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:32]
