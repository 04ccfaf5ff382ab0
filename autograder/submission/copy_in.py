"""How a student's files get into the private package: one file at a time, a single file, a notebook.

A file is copied, never linked or followed through a link, and only if it is a regular file of at
most MAX_FILE_BYTES; what is wrong with it is said in one line (`problems`). One file holding
everything becomes engine.py, and nn.py and train.py show its contents (RE_EXPORT); a notebook is
converted in a process of its own (notebook_reader.py) and becomes that one file, with its cell map.
"""
from __future__ import annotations

import io
import shutil
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from autograder.submission.tree import MAX_FILE_BYTES, fresh


class SubmissionError(Exception):
    """A submission that can't be graded at all; the message is one line."""


@dataclass
class Prepared:
    root: Path                    # holds micrograd/: the folder for the child's sys.path
    files: dict[str, str]         # module ("engine", "ops.add") -> the student's own file name
    problems: list[str] = field(default_factory=list)
    layout: str = "package"       # package | loose | single | found (the package around an engine found)


RE_EXPORT = '''"""Made by the autograder: {name} holds everything; this module shows it as micrograd/{module}.py."""
from . import engine as _everything

globals().update({{k: v for k, v in vars(_everything).items() if not k.startswith("__")}})
'''


def single(source: Path, shown: str, sub: Path, problems: list[str]) -> Prepared:
    """One file holding everything: it becomes engine.py; nn.py and train.py show its contents."""
    files: dict[str, str] = {}
    copy_file(source, sub, Path("engine.py"), shown, files, problems)
    if "engine" not in files:
        raise SubmissionError(problems[-1])
    for module in ("nn", "train"):
        (sub / "micrograd" / f"{module}.py").write_text(RE_EXPORT.format(name=shown, module=module))
        files[module] = shown
    return Prepared(sub, files, problems, "single")


def notebook(path: Path, workdir: Path, problems: list[str]) -> Prepared:
    from autograder.submission.notebook import NotebookError
    from autograder.submission.notebook_reader import read_notebook

    converted = fresh(workdir / "notebook") / (path.stem + ".py")
    table = converted.with_suffix(".cells")
    try:
        problems += read_notebook(path, converted, table)  # in a process of its own: the notebook is the student's
    except NotebookError as exc:
        raise SubmissionError(str(exc)) from None
    prepared = single(converted, path.name, fresh(workdir / "sub"), problems)
    # where each cell stands in engine.py: the child runs them one by one (child/cells.py)
    shutil.copyfile(table, prepared.root / "micrograd" / "engine.cells")
    return prepared


def copy_file(source: Path, sub: Path, rel: Path, shown: str, files: dict[str, str], problems: list[str]) -> None:
    """Copy one student file to sub/micrograd/rel (never through a link), noting what is wrong with it."""
    if source.is_symlink() or not source.is_file():
        problems.append(f"{shown} is a link or not a regular file: left out")
        return
    if source.stat().st_size > MAX_FILE_BYTES:
        problems.append(f"{shown} is larger than {MAX_FILE_BYTES // 2**20} MB: left out")
        return
    data = source.read_bytes()
    if not decodes(data):
        problems.append(f"{shown} is not valid UTF-8: save it as UTF-8 text")
    target = sub / "micrograd" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    files[".".join(rel.with_suffix("").parts)] = shown


def decodes(data: bytes) -> bool:
    """Can Python read this source (UTF-8, or the encoding its coding line names)?"""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return False
    return True
