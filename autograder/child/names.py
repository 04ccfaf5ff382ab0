"""The student's names for their own modules: the child's import hook over the kit's `micrograd` package.

Standard library only: this runs in the sandboxed child (see student.py). `Package` (second on
sys.meta_path, after hooks.Forbidden) makes `import engine` (how a student imports a sibling file
when running it from inside their folder) give the very module `micrograd.engine`: two copies of
engine.py would make two different Value classes; the names their files import their package by
(`nanograd`, `student`: submission/own_names.py) reach `micrograd` itself; and a module that is
missing or did not import is named as such when another imports it. Which of the student's files
is each API module (engine, nn, train) is read from MODULE_MAP (submission/api_modules.py).
"""
import importlib
import importlib.machinery
import os
import sys

MODULES = ("engine", "nn", "train")


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
MODULE_MAP = "modules.txt"  # beside micrograd/: "engine autograd", an API module's file (submission/api_modules.py)


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
    return [line.strip() for line in _lines(root, OWN_NAMES) if line.strip()]


def module_map(root):
    """{API module: the dotted name of the student's file that is it}, each module its own file by default."""
    found = {m: m for m in MODULES}
    for line in _lines(root, MODULE_MAP):
        module, _, name = line.strip().partition(" ")
        if module in found and name:
            found[module] = name
    return found


def _lines(root, name):
    try:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            return f.readlines()
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
