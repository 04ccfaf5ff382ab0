"""Import a student's `micrograd` package and find the exercise API in it.

Standard library only: this runs in the sandboxed child. Its import hook (second
on sys.meta_path, after hooks.Forbidden) makes `import engine` (how a student
imports a sibling file when running it from inside micrograd/) give the very module
`micrograd.engine`: two copies of engine.py would make two different Value classes.
The hooks about which libraries may be imported are in hooks.py.

The hooks are plain classes with the methods the import system calls (find_spec,
create_module, exec_module), not subclasses of importlib.abc's: importing that
module (importlib.resources, pathlib, tempfile, typing...) would cost the child's
start-up more than all the rest of it. No importlib.util or traceback either.
"""
import importlib
import importlib.machinery
import os
import sys
import types

import cells
import places
from hooks import ForbiddenImport

try:  # what importlib.util.module_from_spec is, without importing importlib.util
    _module_from_spec = importlib._bootstrap.module_from_spec
except AttributeError:  # pragma: no cover - another Python's layout
    from importlib.util import module_from_spec as _module_from_spec

MODULES = ("engine", "nn", "train")

# piece of the API -> the module it belongs in (it is looked for in the others too)
PIECES = {
    "Value": "engine",
    "Module": "nn", "Neuron": "nn", "Layer": "nn", "MLP": "nn",
    "mse_loss": "train", "train": "train",
}


class DependencyFailed(ImportError):
    """A student module imported another one that is missing or did not import."""


class _Alias:
    """Loads a top-level name as an existing module of the package (engine -> micrograd.engine)."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.real_spec  # the import system set the alias's spec on it


OWN_NAMES = "own_packages.txt"  # beside micrograd/: the names the student's files import it by (submission/own_names.py)


class Package:
    """Top-level names of the student's files, their own names for the package, and the files known
    to be broken."""

    def __init__(self, package_dir, display):
        self.display = display
        self.broken = {}  # module name (both forms) -> (display name, message)
        self.aliases = {}
        for name in _module_names(package_dir):
            top = name.partition(".")[0]
            if _free(top):
                self.aliases.setdefault(top, "micrograd." + top)
        # `import my_micrograd`, `from crudgrad.engine import Value`: the package itself, and its modules
        self.own = [n for n in _own_names(os.path.dirname(package_dir)) if _free(n) and n not in self.aliases]

    def mark_broken(self, module, message):
        entry = (self.display(module), message)
        self.broken["micrograd." + module] = self.broken[module] = entry

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.broken:
            name, message = self.broken[fullname]
            raise DependencyFailed(f"needs {name}, which {message}", name=fullname)
        if fullname in self.aliases:
            return importlib.machinery.ModuleSpec(fullname, _Alias(self.aliases[fullname]))
        top, dot, rest = fullname.partition(".")
        if top in self.own:
            return importlib.machinery.ModuleSpec(fullname, _Alias("micrograd" + dot + rest))
        return None


def _free(name):
    """Can name stand for a student's module? (Not the standard library's, not one loaded, not micrograd.)"""
    return name.isidentifier() and name not in sys.stdlib_module_names and name not in sys.modules \
        and name != "micrograd"


def _own_names(root):
    try:
        with open(os.path.join(root, OWN_NAMES), encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


def _module_names(package_dir):
    """Dotted names of the .py files under package_dir ("engine", "ops.add")."""
    names = []
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = [d for d in dirs if d.isidentifier()]
        rel = os.path.relpath(folder, package_dir)
        prefix = "" if rel == "." else rel.replace(os.sep, ".") + "."
        names += [prefix + f[:-3] for f in files if f.endswith(".py") and f[:-3].isidentifier()]
    return names


class Student:
    """The student's package as imported: modules, import errors, missing files, the API."""

    def __init__(self, root, display_names=None, import_seconds=None):
        self.root = os.path.realpath(root)
        self.package_dir = os.path.join(self.root, "micrograd")
        self.display_names = dict(display_names or {})
        self.modules = {}
        self.errors = {m: None for m in MODULES}
        self.missing = [m for m in MODULES if not os.path.isfile(os.path.join(self.package_dir, m + ".py"))]
        self.hooks = Package(self.package_dir, self.display)
        self.forbidden = None  # the import error of a module that imported a forbidden library
        self.cell_errors = []  # a notebook's cells that raised (the cells after them ran on): the first ones
        self.cells_failed = 0  # and how many
        self.syntax = {}  # module -> [the line, the caret's column] of the SyntaxError it did not import with
        self.import_seconds = import_seconds  # the import's time limit: a notebook's long cell is stopped

    def display(self, module):
        """What the student calls the file of a module: "engine.py", "micrograd/engine.py", "hw3.py"."""
        return self.display_names.get(module) or module.replace(".", "/") + ".py"

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
        """Import engine, then nn, then train, then __init__.py; one failing doesn't stop the rest."""
        sys.modules["micrograd"] = package = self._package()
        for module in self.missing:
            self.hooks.mark_broken(module, "is missing")
        for module in MODULES:
            if module in self.missing:
                continue
            try:
                self.modules[module] = self._import(module, package)
            except BaseException as exc:  # noqa: B036 - SystemExit at import is the student's too
                self.errors[module] = self.import_message(module, exc)
                if places.syntax_line(exc) is not None:
                    self.syntax[module] = list(places.syntax_line(exc))
                self.hooks.mark_broken(module, "did not import")
                self._note_forbidden(exc, module)
        init = os.path.join(self.package_dir, "__init__.py")
        if os.path.isfile(init):
            try:
                with open(init, "rb") as f:
                    exec(compile(f.read(), init, "exec"), package.__dict__)
            except BaseException as exc:  # noqa: B036
                self.errors["__init__"] = self.import_message("__init__", exc)
                self._note_forbidden(exc, "__init__")
        self.modules["__init__"] = package

    def _import(self, module, package):
        """micrograd.<module>; a notebook's module (one with a .cells map beside it) cell by cell."""
        path = os.path.join(self.package_dir, module + ".py")
        table = cells.cell_map(path)
        if table is None:
            return importlib.import_module("micrograd." + module)
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
        for piece, home in PIECES.items():
            for module in (home,) + tuple(m for m in MODULES if m != home) + ("__init__",):
                value = _piece(self.modules.get(module), piece)
                if value is not None:
                    found[piece] = value
                    break
            else:
                why[piece] = self._why_missing(piece, home)
        return make_api(found, why)

    def _why_missing(self, piece, home):
        name = self.display(home)
        if home in self.missing:
            return f"there is no {name}, so no {piece}"
        if self.errors.get(home):
            return f"{name} did not import, so {piece} is missing ({self.errors[home]})"
        return f"{name} has no {piece}"


def _piece(module, name):
    value = getattr(module, name, None) if module is not None else None
    if name[0].isupper():
        return value if isinstance(value, type) else None
    return value if callable(value) and not isinstance(value, (type, types.ModuleType)) else None


class MissingPiece(AttributeError):
    """A program used a piece of the API the student's package doesn't have."""


def make_api(found, why):
    """A namespace of the pieces found; reading a missing one raises MissingPiece(why).

    MissingPiece is an AttributeError, so getattr(api, "Neuron", None) is None.
    """
    class Api(types.SimpleNamespace):
        # what the case programs ask an engine for with getattr(api, name, None) and a student's never has
        # (the torch adapter's own mix, numpy grads: adapt.py sets grad_zero), found without __getattr__
        native_mix = grad_zero = None

        def __getattr__(self, name):  # only called for attributes that are not there
            if name in why:
                raise MissingPiece(why[name])
            raise AttributeError(name)

    return Api(**found)


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
