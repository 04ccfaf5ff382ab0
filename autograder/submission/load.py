"""Normalise a submission, in whatever shape it came, into a private `micrograd` package.

Accepted: a folder holding micrograd/; a folder with engine.py, nn.py, train.py
at its top (some may be missing); a folder with a single .py file; a single .py
file (or notebook) holding everything; a .zip of any of these (a single top
folder is unwrapped). Only Python files are copied, to <workdir>/sub/micrograd/.

Where none of these holds the engine (a repo's micrograd/micrograd/, a package beside a
main.py, src/nanograd/value.py, a single micrograd.py beside other files), the file whose
text is an engine is found wherever it is (engine_finder.py), and its package is copied;
a module of the API kept in a file of another name is mapped (api_modules.py).
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from autograder.submission.api_modules import module_map, write_map
from autograder.submission.copy_in import Prepared, SubmissionError, copy_file, notebook, single
from autograder.submission.engine_finder import Profile, ambiguity, engines, may_tie, profile, used
from autograder.submission.own_names import write_own_names
from autograder.submission.tree import (
    MAX_DEPTH, engine_file, fresh, links, module_of, package_of, python_files, unwrapped, visible, visible_dir)

MAX_FILES = 1000

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
            return single(path, path.name, fresh(workdir / "sub"), problems)
        if suffix == ".ipynb":
            return notebook(path, workdir, problems)
        if suffix != ".zip":
            raise SubmissionError(f"{path.name} is not a folder, a .py file, a notebook or a .zip")
        from autograder.submission.unzip import ZipRefused, unzip  # zipfile (bz2, lzma): a .zip's only

        folder = fresh(workdir / "unzipped")
        try:
            problems += unzip(path, folder)
        except ZipRefused as exc:
            raise SubmissionError(str(exc)) from None
    else:
        folder = path
    return _from_folder(folder, fresh(workdir / "sub"), problems, workdir, shown=_shown(path))


def holds_nothing(path: Path) -> bool:
    """Is path a folder with no Python file, notebook or link in it (no submission at all)?"""
    path = Path(path)
    return path.is_dir() and not path.is_symlink() and _find_base(path) is None and not links(path)


NOTHING = "no Python file (micrograd/, engine.py, nn.py, train.py, or one .py or .ipynb) in {shown}"


def _shown(path: Path) -> str:
    """How a submission's path reads in a message: its own name (a folder given as `.` by its real name)."""
    return path.name or path.resolve().name or str(path)


def _from_folder(folder: Path, sub: Path, problems: list[str], workdir: Path, *, shown: str) -> Prepared:
    base = _find_base(folder)
    linked = sorted(p.relative_to(folder).as_posix() for p in links(folder))
    if linked:
        problems.append(f"{', '.join(linked[:5])}: symbolic link(s), not followed: hand in the files themselves")
    if base is None:
        raise SubmissionError(NOTHING.format(shown=shown) + (f" ({problems[-1]})" if linked else ""))
    top = unwrapped(folder)
    found = _Found(top, sub, problems, workdir)
    if _has_package(base):
        package = base / "micrograd"
        files = python_files(package, deep=True)
        engine = engine_file(package)
        if engine is None:
            return found.elsewhere() or found.copy(package, files, "micrograd/", "package")
        return found.copy(package, files, "micrograd/", "package", also=engine)
    files = python_files(base)
    notebooks = [p for p in visible(base) if p.suffix.lower() == ".ipynb" and p.is_file()]
    if len(files) == 1 and not module_of(files[0].name):
        return found.unless_engine(files[0]) or single(files[0], files[0].name, sub, problems)
    if not files and len(notebooks) == 1:
        return found.unless_engine(notebooks[0]) or notebook(notebooks[0], workdir, problems)
    engine = engine_file(base)
    if engine is None:
        return found.elsewhere() or found.copy(base, files, "", "loose")
    return found.copy(base, files, "", "loose", also=engine)


class _Found:
    """The submission's files, read (engine_finder) only as far as a choice needs, and the packages copied."""

    def __init__(self, top: Path, sub: Path, problems: list[str], workdir: Path):
        self.top, self.sub, self.problems, self.workdir = top, sub, problems, workdir
        self.listing = python_files(top, deep=True, notebooks=True)[:MAX_FILES]
        self.read: dict[Path, Profile] = {}

    def profile(self, path: Path) -> Profile:
        if path not in self.read:
            self.read[path] = profile(path, self.top)
        return self.read[path]

    @property
    def profiles(self) -> list[Profile]:
        return [self.profile(p) for p in self.listing]

    def _graded(self, path: Path) -> Profile | None:
        """path's profile, if it is an engine; then the line naming the others as plausible, if any (only the
        files that may be, by their paths, are read)."""
        chosen = self.profile(path)
        if not chosen.engine:
            return None
        others = [p for p in self.listing if may_tie(path, p, self.top)]
        if others:
            self.problems += ambiguity(chosen, [self.profile(p) for p in others] + [chosen])
        return chosen

    def unless_engine(self, path: Path) -> Prepared | None:
        """None when the one file or notebook found at the top is an engine (or no file is): graded as it
        is; else the package around the engine found."""
        return None if self._graded(path) else self.elsewhere()

    def elsewhere(self) -> Prepared | None:
        """The package around the most plausible engine of the submission (None if no file is one)."""
        best = engines(self.profiles)
        if not best:
            return None
        engine = best[0]
        package = package_of(engine.path, self.top) if engine.path.suffix == ".py" else engine.path.parent
        if not used(engine, package, self.top, self.profiles):
            return None
        self._graded(engine.path)
        if engine.path.suffix.lower() == ".ipynb":
            return notebook(engine.path, self.workdir, self.problems)
        rel = package.relative_to(self.top).as_posix()
        prefix = "" if rel == "." else rel + "/"
        files = python_files(package, deep=package != self.top or (package / "__init__.py").is_file())
        self.problems.append(f"found your engine in {engine.rel.as_posix()}: the kit grades " + (
            "it with the files beside it" if package == self.top else f"the package {prefix} it is in"))
        return self.copy(package, files + self._beside(package, files), prefix, "found", engine=engine.path)

    def _beside(self, package: Path, files: list[Path]) -> list[Path]:
        """Scripts beside a package holding an API module it lacks (train.py beside nanograd/)."""
        if package == self.top:
            return []
        inside = [self.profile(p) for p in files]
        names = {p.name for p in files if p.parent == package}
        wanted = [m for m in ("nn", "train") if f"{m}.py" not in names and not any(
            getattr(p, m) for p in inside)]
        return [p.path for p in self.profiles if p.path.parent == package.parent and p.path.suffix == ".py"
                and p.path.name not in names and any(p.path.name == f"{m}.py" or getattr(p, m) for m in wanted)]

    def copy(self, package: Path, sources: list[Path], prefix: str, layout: str, *, also: Path | None = None,
             engine: Path | None = None) -> Prepared:
        """Copy sources (under package, or beside it) to sub/micrograd/, keeping their paths below package."""
        if also is not None:
            self._graded(also)
        files: dict[str, str] = {}
        dotted: dict[Path, str] = {}
        outside = str(PurePosixPath(prefix).parent) + "/" if prefix else ""
        for source in sources[:MAX_FILES]:
            inside = package in source.parents
            rel = source.relative_to(package) if inside else Path(source.name)
            shown = (prefix if inside else outside.removeprefix("./")) + rel.as_posix()
            dotted[source] = ".".join(rel.with_suffix("").parts)
            copy_file(source, self.sub, rel, shown, files, self.problems)
        if len(sources) > MAX_FILES:
            self.problems.append(f"more than {MAX_FILES} Python files: only the first {MAX_FILES} were used")
        needed = engine is not None or any(m not in files for m in ("engine", "nn", "train"))
        profiles = {dotted[p]: self.profile(p) for p in sources if dotted.get(p) in files} if needed else {}
        write_map(self.sub, module_map(files, self.sub / "micrograd", prefix, self.problems, profiles,
                                       dotted.get(engine)))
        self.problems += write_own_names(self.sub, files, "" if layout == "package" else package.name)
        return Prepared(self.sub, files, self.problems, layout)


def _find_base(folder: Path) -> Path | None:
    """The folder holding micrograd/, the Python files or a notebook, through wrapper folders."""
    for _ in range(MAX_DEPTH + 1):
        entries = visible(folder)
        if _has_package(folder) or any(p.suffix.lower() in (".py", ".ipynb") and p.is_file() for p in entries):
            return folder
        dirs = [p for p in entries if visible_dir(p)]
        if len(dirs) != 1:
            break
        folder = dirs[0]
    # several folders: the shallowest micrograd/ or engine.py wins, else the shallowest .py
    found = sorted(python_files(folder, deep=True),
                   key=lambda p: (p.parent.name != "micrograd" and not module_of(p.name), len(p.parts), str(p)))
    if not found:
        return None
    best = found[0].parent
    return best.parent if best.name == "micrograd" else best


def _has_package(folder: Path) -> bool:
    return visible_dir(folder / "micrograd") and bool(python_files(folder / "micrograd", deep=True))
