"""Import a student's `micrograd` package and find the exercise API in it.

Standard library only: this runs in the sandboxed child. Its import hook, which gives
the student's own names for their modules the kit's (`import engine`, `import nanograd`),
is in names.py; the hooks about which libraries may be imported are in hooks.py.

The hooks are plain classes with the methods the import system calls (find_spec,
create_module, exec_module), not subclasses of importlib.abc's: importing that
module (importlib.resources, pathlib, tempfile, typing...) would cost the child's
start-up more than all the rest of it. No importlib.util or traceback either.
"""
import importlib
import importlib.machinery
import os
import sys

try:
    import _signal  # SIGALRM without the signal module's imports (enum...): see adapt.py
except ImportError:  # pragma: no cover
    _signal = None

from . import cells, places
from .api import PIECES, MissingPiece, make_api, piece, value_class  # noqa: F401 - MissingPiece: main.py's
from .hooks import ForbiddenImport
from .names import MODULES, DependencyFailed, Package, module_map

try:  # what importlib.util.module_from_spec is, without importing importlib.util
    _module_from_spec = importlib._bootstrap.module_from_spec
except AttributeError:  # pragma: no cover - another Python's layout
    from importlib.util import module_from_spec as _module_from_spec


class Student:
    """The student's package as imported: modules, import errors, missing files, the API."""

    def __init__(self, root, display_names=None, import_seconds=None):
        self.root = os.path.realpath(root)
        self.package_dir = os.path.join(self.root, "micrograd")
        self.display_names = dict(display_names or {})
        self.modules = {}
        self.errors = {m: None for m in MODULES}
        self.files = module_map(self.root)  # API module -> the student's module that is it
        self.missing = [m for m in MODULES if not os.path.isfile(self._path(m))]
        self.hooks = Package(self.package_dir, self.display)
        self.forbidden = None  # the import error of a module that imported a forbidden library
        self.cell_errors = []  # a notebook's cells that raised (the cells after them ran on): the first ones
        self.cells_failed = 0  # and how many
        self.syntax = {}  # module -> [the line, the caret's column] of the SyntaxError it did not import with
        self.import_seconds = import_seconds  # the import's time limit: a notebook's long cell is stopped
        self.notes = []  # what the kit took for what (a Value class of another name), one line each

    def display(self, module):
        """What the student calls the file of a module: "engine.py", "micrograd/engine.py", "hw3.py"."""
        module = self.files.get(module, module)
        return self.display_names.get(module) or module.replace(".", "/") + ".py"

    def _path(self, module):
        """The file of an API module: its own, or its package's __init__.py."""
        path = os.path.join(self.package_dir, *self.files[module].split("."))
        return path + ".py" if not os.path.isdir(path) else os.path.join(path, "__init__.py")

    def where(self, exc):
        """"engine.py:34" for the innermost frame in a student file, or ""."""
        where = ""
        tb = BaseException.__traceback__.__get__(exc)  # the real one: a student's class can't fake it
        while tb is not None:  # traceback.walk_tb
            name = self.file_name(tb.tb_frame.f_code.co_filename)
            if name:
                where = f"{name}:{tb.tb_lineno}"
            tb = tb.tb_next
        if isinstance(exc, SyntaxError) and self.file_name(exc.filename or ""):
            where = f"{self.file_name(exc.filename)}:{exc.lineno}"
        return where

    def file_name(self, path):
        try:
            rel = os.path.relpath(os.path.realpath(path), self.package_dir)
        except ValueError:
            return ""
        if rel.startswith("..") or not rel.endswith(".py"):
            return ""
        return self.display(rel[:-3].replace(os.sep, "."))

    def import_all(self):
        """Import engine, then nn, then train, then __init__.py (first when it holds the engine); one failing
        doesn't stop the rest."""
        sys.modules["micrograd"] = package = self._package()
        for module in self.missing:
            self.hooks.mark_broken(module, "is missing")
        init_first = self.files["engine"] == "__init__"  # the package's own __init__.py holds the engine
        if init_first:
            self._run_init(package)
        for module in MODULES:
            if module in self.missing:
                continue
            first = next(m for m in MODULES if self.files[m] == self.files[module])  # one file, several modules
            if first != module or self.files[module] == "__init__":  # imported already
                source = "__init__" if self.files[module] == "__init__" else first
                self.modules[module] = package if source == "__init__" else self.modules.get(first)
                self.errors[module] = self.errors.get(source)
                continue
            try:
                self.modules[module] = self._import(module, package)
            except BaseException as exc:  # noqa: B036 - SystemExit at import is the student's too
                self.errors[module] = self.import_message(module, exc)
                if places.syntax_line(exc) is not None:
                    self.syntax[module] = list(places.syntax_line(exc))
                self.hooks.mark_broken(self.files[module], "did not import")
                self._note_forbidden(exc, module)
        if not init_first:
            self._run_init(package)
        self.modules["__init__"] = package

    def _run_init(self, package):
        init = os.path.join(self.package_dir, "__init__.py")
        if os.path.isfile(init):
            try:
                with open(init, "rb") as f:
                    exec(compile(f.read(), init, "exec"), package.__dict__)
            except BaseException as exc:  # noqa: B036
                self.errors["__init__"] = self.import_message("__init__", exc)
                self._note_forbidden(exc, "__init__")

    def _import(self, module, package):
        """micrograd.<module>'s file; a notebook's module (one with a .cells map beside it) cell by cell. A
        student's own micrograd.py is their `micrograd`: the package shows what it defines."""
        path, name = self._path(module), self.files[module]
        table = cells.cell_map(path)
        if table is None:
            if name not in (module, self.files["engine"]) and self.import_seconds:  # a file holding nn's or train's
                made = _timed_import("micrograd." + name, self.import_seconds * cells.PER_CELL, self.display(module),
                                     module)
            else:
                made = importlib.import_module("micrograd." + name)
            if name == "micrograd":
                package.__dict__.update({k: v for k, v in vars(made).items() if not k.startswith("__")})
            return made
        made, failed, count = cells.run_cells("micrograd." + module, path, table,
                                              lambda exc: self.import_message(module, exc), self.import_seconds)
        setattr(package, module, made)
        self.cell_errors += failed
        self.cells_failed += count
        return made

    def _note_forbidden(self, exc, module):
        """Remember the first module that did not import because it imports a forbidden library."""
        if isinstance(exc, ForbiddenImport) and self.forbidden is None:
            self.forbidden = self.errors[module]

    def _package(self):
        """The package module, made by hand: its __init__.py runs last, so it can't block the rest."""
        spec = importlib.machinery.ModuleSpec("micrograd", None, is_package=True)
        spec.submodule_search_locations = [self.package_dir]
        package = _module_from_spec(spec)
        package.__file__ = os.path.join(self.package_dir, "__init__.py")
        return package

    def import_message(self, module, exc):
        """One line: "engine.py:12: SyntaxError: invalid syntax"."""
        if isinstance(exc, DependencyFailed):
            name, message = self.hooks.broken[exc.name]
            if name == self.display(module):  # one file shown as several modules
                return self.errors.get(exc.name.rpartition(".")[2]) or f"{name} {message}"
            text = str(exc)
        else:
            text = describe(exc)
        where = self.where(exc)
        return self.scrub(f"{where}: {text}" if where else f"{self.display(module)}: {text}")

    def scrub(self, text):
        """A message without the private folder's path: "micrograd/data.txt", not "/tmp/.../sub/micrograd/..."."""
        return text.replace(self.root + os.sep, "").replace(self.root, ".")

    def api(self):
        """The exercise API as a namespace; a piece it lacks raises MissingPiece with the reason."""
        found, why = {}, {}
        for name, home in PIECES.items():
            for module in (home,) + tuple(m for m in MODULES if m != home) + ("__init__",):
                value = piece(self.modules.get(module), name)
                if value is not None:
                    found[name] = value
                    break
            else:
                why[name] = self._why_missing(name, home)
        if "Value" in why:
            value = value_class(self.modules.get("engine"))
            if value is not None:
                del why["Value"]
                found["Value"] = value
                self.notes.append(f"your engine's class is `{value.__name__}`: the kit uses it as `Value`")
        return make_api(found, why)

    def _why_missing(self, piece, home):
        name = self.display(home)
        if home in self.missing:
            return f"there is no {name}, so no {piece}"
        if self.errors.get(home):
            return f"{name} did not import, so {piece} is missing ({self.errors[home]})"
        return f"{name} has no {piece}"


class ImportStopped(BaseException):
    """A file the kit took for an API module by what it holds ran too long when imported (a script's own work)."""


def _timed_import(name, seconds, shown, module):
    """import name, stopped after `seconds`: a script beside the package (main.py holding mse_loss) may train
    at its top level, and the rest of the import must not wait for it."""
    def stop(signum, frame):
        raise ImportStopped(f"{shown} ran longer than {seconds:g} s when imported as {module}.py (the kit imports "
                            "it for what it defines: put a script's own work under `if __name__ == '__main__':`)")

    if _signal is None:  # pragma: no cover - a platform without it: no guard
        return importlib.import_module(name)
    previous = _signal.signal(_signal.SIGALRM, stop)
    _signal.setitimer(_signal.ITIMER_REAL, seconds)
    try:
        return importlib.import_module(name)
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, previous)


def describe(exc):
    """"TypeError: text" for any exception, even one whose __str__ fails."""
    kind = "ImportError" if isinstance(exc, ForbiddenImport) else type(exc).__name__
    if isinstance(exc, SyntaxError):
        return f"{kind}: {exc.msg}"
    try:
        text = str(exc)
    except BaseException:  # noqa: B036 - a student's exception class
        text = "(its message could not be shown)"
    if isinstance(exc, SystemExit):
        return f"SystemExit: your code called exit({text})"
    if isinstance(exc, MemoryError) and not text:
        return "MemoryError: out of memory"
    text = text[:500] + "..." if len(text) > 500 else text
    return f"{kind}: {text}" if text else kind
