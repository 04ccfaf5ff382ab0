"""Normalise a submission, in whatever shape it came, into a private `micrograd` package.

Accepted: a folder holding micrograd/; a folder with engine.py, nn.py, train.py
at its top (some may be missing); a folder with a single .py file; a single .py
file (or notebook) holding everything; a .zip of any of these (a single top
folder is unwrapped). Only Python files are copied, to <workdir>/sub/micrograd/.
"""
from __future__ import annotations

import io
import re
import shutil
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from autograder.submission.own_names import write_own_names
from autograder.submission.unzip import MAX_FILE_BYTES, ZipRefused, unzip

MODULES = ("engine", "nn", "train")
MAX_FILES = 1000
MAX_DEPTH = 4  # wrapper folders looked through
SKIPPED = {"__pycache__", "__macosx", "site-packages", "venv", "node_modules"}
# "engine (1).py", "engine-2.py", "Engine.py": how an LMS or an OS renames a file
RENAMED = re.compile(r"^(engine|nn|train)[\s_-]*(\(\d+\)|\d+)?\.py$", re.IGNORECASE)

RE_EXPORT = '''"""Made by the autograder: {name} holds everything; this module shows it as micrograd/{module}.py."""
from . import engine as _everything

globals().update({{k: v for k, v in vars(_everything).items() if not k.startswith("__")}})
'''


class SubmissionError(Exception):
    """A submission that can't be graded at all; the message is one line."""


@dataclass
class Prepared:
    root: Path                    # holds micrograd/: the folder for the child's sys.path
    files: dict[str, str]         # module ("engine", "ops.add") -> the student's own file name
    problems: list[str] = field(default_factory=list)
    layout: str = "package"       # package | loose | single


def prepare(path: Path, workdir: Path) -> Prepared:
    """Copy the submission at path into workdir/sub/micrograd/; raise SubmissionError if unusable."""
    path, workdir = Path(path), Path(workdir)
    problems: list[str] = []
    if path.is_symlink():  # a link is never followed: it could lead to anyone's files
        raise SubmissionError(f"{path.name} is a symbolic link, and links are not followed: hand in the files "
                              "themselves")
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder")
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix == ".py":
            return _single(path, path.name, _fresh(workdir / "sub"), problems)
        if suffix == ".ipynb":
            return _notebook(path, workdir, problems)
        if suffix != ".zip":
            raise SubmissionError(f"{path.name} is not a folder, a .py file, a notebook or a .zip")
        folder = _fresh(workdir / "unzipped")
        try:
            problems += unzip(path, folder)
        except ZipRefused as exc:
            raise SubmissionError(str(exc)) from None
    else:
        folder = path
    return _from_folder(folder, _fresh(workdir / "sub"), problems, workdir, shown=_shown(path))


def holds_nothing(path: Path) -> bool:
    """Is path a folder with no Python file, notebook or link in it (no submission at all)?"""
    path = Path(path)
    return path.is_dir() and not path.is_symlink() and _find_base(path) is None and not _links(path)


NOTHING = "no Python file (micrograd/, engine.py, nn.py, train.py, or one .py or .ipynb) in {shown}"


def _shown(path: Path) -> str:
    """How a submission's path reads in a message: its own name (a folder given as `.` by its real name)."""
    return path.name or path.resolve().name or str(path)


def _from_folder(folder: Path, sub: Path, problems: list[str], workdir: Path, *, shown: str) -> Prepared:
    base = _find_base(folder)
    links = sorted(p.relative_to(folder).as_posix() for p in _links(folder))
    if links:
        problems.append(f"{', '.join(links[:5])}: symbolic link(s), not followed: hand in the files themselves")
    if base is None:
        raise SubmissionError(NOTHING.format(shown=shown) + (f" ({problems[-1]})" if links else ""))
    if _has_package(base):
        return _copy_files(base / "micrograd", _python_files(base / "micrograd", deep=True), "micrograd/",
                           sub, problems, "package")
    files = _python_files(base)
    if len(files) == 1 and not _module_of(files[0].name):
        return _single(files[0], files[0].name, sub, problems)
    notebooks = [p for p in _visible(base) if p.suffix.lower() == ".ipynb" and p.is_file()]
    if not files and len(notebooks) == 1:
        return _notebook(notebooks[0], workdir, problems)
    return _copy_files(base, files, "", sub, problems, "loose")


def _find_base(folder: Path) -> Path | None:
    """The folder holding micrograd/, the Python files or a notebook, through wrapper folders."""
    for _ in range(MAX_DEPTH + 1):
        entries = _visible(folder)
        if _has_package(folder) or any(p.suffix.lower() in (".py", ".ipynb") and p.is_file() for p in entries):
            return folder
        dirs = [p for p in entries if _visible_dir(p)]
        if len(dirs) != 1:
            break
        folder = dirs[0]
    # several folders: the shallowest micrograd/ or engine.py wins, else the shallowest .py
    found = sorted(_python_files(folder, deep=True),
                   key=lambda p: (p.parent.name != "micrograd" and not _module_of(p.name), len(p.parts), str(p)))
    if not found:
        return None
    best = found[0].parent
    return best.parent if best.name == "micrograd" else best


def _copy_files(top: Path, sources: list[Path], prefix: str, sub: Path, problems: list[str],
                layout: str) -> Prepared:
    """Copy sources (under top) to sub/micrograd/, keeping their paths below top."""
    files: dict[str, str] = {}
    for source in sources[:MAX_FILES]:
        rel = source.relative_to(top)
        _copy(source, sub, rel, prefix + rel.as_posix(), files, problems)
    if len(sources) > MAX_FILES:
        problems.append(f"more than {MAX_FILES} Python files: only the first {MAX_FILES} were used")
    _find_modules(files, sub / "micrograd", prefix, problems)
    problems += write_own_names(sub, files, "" if layout == "package" else top.name)
    return Prepared(sub, files, problems, layout)


def _single(source: Path, shown: str, sub: Path, problems: list[str]) -> Prepared:
    """One file holding everything: it becomes engine.py; nn.py and train.py show its contents."""
    files: dict[str, str] = {}
    _copy(source, sub, Path("engine.py"), shown, files, problems)
    if "engine" not in files:
        raise SubmissionError(problems[-1])
    for module in ("nn", "train"):
        (sub / "micrograd" / f"{module}.py").write_text(RE_EXPORT.format(name=shown, module=module))
        files[module] = shown
    return Prepared(sub, files, problems, "single")


def _notebook(path: Path, workdir: Path, problems: list[str]) -> Prepared:
    from autograder.submission.notebook import NotebookError
    from autograder.submission.notebook_reader import read_notebook

    converted = _fresh(workdir / "notebook") / (path.stem + ".py")
    table = converted.with_suffix(".cells")
    try:
        problems += read_notebook(path, converted, table)  # in a process of its own: the notebook is the student's text
    except NotebookError as exc:
        raise SubmissionError(str(exc)) from None
    prepared = _single(converted, path.name, _fresh(workdir / "sub"), problems)
    # where each cell stands in engine.py: the child runs them one by one (child/cells.py)
    shutil.copyfile(table, prepared.root / "micrograd" / "engine.cells")
    return prepared


def _copy(source: Path, sub: Path, rel: Path, shown: str, files: dict[str, str], problems: list[str]) -> None:
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


def _find_modules(files: dict[str, str], package: Path, prefix: str, problems: list[str]) -> None:
    """Use "engine (1).py" as engine.py when there is no engine.py; say which modules are missing."""
    for module in MODULES:
        if module in files:
            continue
        renamed = sorted(m for m in files if "." not in m and _module_of(m + ".py") == module)
        if renamed:
            (package / f"{renamed[0]}.py").rename(package / f"{module}.py")
            files[module] = files.pop(renamed[0])
            problems.append(f"used {files[module]} as {prefix}{module}.py")
        else:
            problems.append(f"no {prefix}{module}.py found")


def decodes(data: bytes) -> bool:
    """Can Python read this source (UTF-8, or the encoding its coding line names)?"""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return False
    return True


def _python_files(folder: Path, *, deep: bool = False) -> list[Path]:
    """The visible .py files in folder (and below it, if deep), sorted."""
    found = folder.rglob("*.py") if deep else folder.glob("*.py")
    return sorted(p for p in found if not _hidden(p.relative_to(folder)) and p.is_file() and not p.is_symlink())


def _links(folder: Path, depth: int = MAX_DEPTH) -> list[Path]:
    """The symbolic links in folder, a few levels down (not through links)."""
    found: list[Path] = []
    for p in _visible(folder):
        if p.is_symlink():
            found.append(p)
        elif depth and p.is_dir():
            found += _links(p, depth - 1)
    return found


def _has_package(folder: Path) -> bool:
    return _visible_dir(folder / "micrograd") and bool(_python_files(folder / "micrograd", deep=True))


def _visible(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if not _hidden(Path(p.name))]
    except OSError:
        return []


def _visible_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _hidden(rel: Path) -> bool:
    return any(part.startswith(".") or part.lower() in SKIPPED or part.endswith("~") for part in rel.parts)


def _module_of(name: str) -> str | None:
    match = RENAMED.match(name)
    return match.group(1).lower() if match else None


def _fresh(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path
