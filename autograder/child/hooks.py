"""The import hooks of the child that are not about the student's package: what may be imported.

Standard library only: this runs in the sandboxed child (see student.py for why the hooks
are plain classes). `Forbidden` goes first on sys.meta_path and refuses the forbidden
libraries (torch, ...), even where the student's code put them on sys.path itself; the
allowed packages (numpy) are on sys.path (main.py), nothing else installed is; last come
`DisplayStandIn` (plotting libraries become stand-ins that do nothing) and `Unavailable`
(any other missing top-level module: one line saying what the assignment allows).
"""
import importlib.machinery
import sys
import types


class ForbiddenImport(ImportError):
    """The student's code imported a library the assignment forbids (torch...)."""


class Forbidden:
    """Refuses the forbidden libraries and their submodules."""

    def __init__(self, names):
        self.names = frozenset(names)

    def unload(self):
        """Forget the forbidden modules already imported (a zygote preloads `random`, say): an import of
        them then asks this finder. The kit's own modules keep the ones they hold."""
        for name in [n for n in sys.modules if n.partition(".")[0] in self.names]:
            del sys.modules[name]

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        if top in self.names:
            raise ForbiddenImport(
                f"{top} is not allowed in this assignment: your engine must compute its own gradients",
                name=fullname,
            )
        return None


class Unavailable:
    """Last on sys.meta_path: a top-level module found nowhere gets one line saying what may be imported."""

    def __init__(self, allowed):
        self.names = frozenset(allowed)
        self.allowed = " and ".join(["the Python standard library"] + [", ".join(allowed)] * bool(allowed))

    def find_spec(self, fullname, path=None, target=None):
        if "." in fullname:  # a submodule: its package is there, Python's own message says it
            return None
        if fullname in self.names:
            why = f"it is allowed, but not installed beside the autograder (pip install {fullname})"
        else:
            why = f"this assignment lets your code import {self.allowed} only"
        raise ModuleNotFoundError(f"No module named '{fullname}': {why}", name=fullname)


# Libraries a notebook imports to show things, never to compute: when they are not
# there (no site-packages in the child), a stand-in that does nothing is imported. tqdm's
# progress bars (`for k in tqdm(range(steps))` in a training loop) show nothing, and the
# loop they wrap runs as it is.
DISPLAY_ONLY = frozenset({"matplotlib", "graphviz", "IPython", "seaborn", "plotly", "ipywidgets", "tqdm"})


class DisplayStandIn:
    """Last on sys.meta_path: `import matplotlib.pyplot as plt; plt.plot(losses)` does nothing."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in DISPLAY_ONLY:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return (_ProgressModule if spec.name.partition(".")[0] == "tqdm" else _StandInModule)(spec.name)

    def exec_module(self, module):
        module.__path__ = []


class _StandInModule(types.ModuleType):
    def __getattr__(self, name):
        return getattr(_Nothing(), name)


class _ProgressModule(types.ModuleType):
    """tqdm, tqdm.auto, tqdm.notebook...: tqdm(iterable) and trange(n) iterate as the iterable and range(n) do."""

    def __getattr__(self, name):
        if name == "tqdm":
            return _Bar
        if name == "trange":
            return lambda *args, **kwargs: _Bar(range(*args))
        return getattr(_Nothing(), name)


class _Bar:
    """A progress bar that shows nothing: iterating it iterates what it wraps; anything else does nothing."""

    def __init__(self, iterable=None, *args, **kwargs):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable if self.iterable is not None else ())

    def __len__(self):
        return len(self.iterable) if self.iterable is not None else 0

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Nothing()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _Nothing:
    """Any attribute, call, index or `with` of it gives nothing; subplots() gives two of it."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Nothing() if name != "subplots" else (lambda *a, **k: (_Nothing(), _Nothing()))

    def __call__(self, *args, **kwargs):
        return _Nothing()

    def __getitem__(self, key):
        return _Nothing()

    def __iter__(self):
        return iter(())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<display stand-in>"
