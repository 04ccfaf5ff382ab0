"""A corpus of submissions laid out as public re-implementations of micrograd are (issue 29.1).

The code is the solutions' (right): what varies is where it sits and the names it imports itself
by. A cloned repo's `micrograd/micrograd/`, a package beside the `main.py` that uses it, src/
layouts, a notebook beside its package, a single `micrograd.py`, files named `engine_clone.py`,
packages and modules named as the kit's own child modules are (`student`, `programs`, `main`,
`observe`, `hooks`, `adapt`, `cells`, `kernel`), flat `from engine import Value` inside a package,
imports inside functions. Each Layout is graded once with the hidden cases
(tests/corpus/test_engine_places.py): the right ones must keep full marks, with no line saying two
engines look alike; the ambiguous ones (two engines as plausible) get exactly one such line,
naming both.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions" / "micrograd"
ENGINE = (SOLUTIONS / "engine.py").read_text(encoding="utf-8")
NN = (SOLUTIONS / "nn.py").read_text(encoding="utf-8")
TRAIN = (SOLUTIONS / "train.py").read_text(encoding="utf-8")
NN_IMPORT = "from micrograd.engine import Value"
assert NN.count(NN_IMPORT) == 1
AMBIGUOUS = "each look like your engine"  # the one line of an ambiguous submission


def nn(line: str) -> str:
    """nn.py importing Value by `line` instead."""
    return NN.replace(NN_IMPORT, line)


def notebook(*cells: str) -> str:
    """A notebook (nbformat 4) of these code cells."""
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
         "source": text.splitlines(keepends=True)} for i, text in enumerate(cells)]}, indent=1)


def package(name: str, *, engine: str = "engine", own: bool = True) -> dict[str, str]:
    """A package `name` of the three modules (the engine in `<engine>.py`), nn.py importing it by its name."""
    line = f"from {name}.{engine} import Value" if own else f"from .{engine} import Value"
    return {f"{name}/__init__.py": f"from .{engine} import Value\n", f"{name}/{engine}.py": ENGINE,
            f"{name}/nn.py": nn(line), f"{name}/train.py": TRAIN}


ALL_IN_ONE = ENGINE + "\n\n" + nn("") + "\n\n" + TRAIN  # engine, nn and train in one file

# a lazy import: nn's Value, and train's MLP, only when called
NEURON = "    def __init__(self, nin, nonlin=True, activation='tanh'):\n"
assert NN.count(NEURON) == 1
LAZY_NN = nn("").replace(NEURON, NEURON + "        from nanograd.engine import Value\n")
LAZY_TRAIN = TRAIN.replace("def mse_loss(predictions, targets):\n",
                           "def mse_loss(predictions, targets):\n    from nanograd import engine  # noqa: F401\n")

# helper modules named as the kit's own child modules, each used by the engine's package
KIT_NAMED = {
    "observe.py": "def label(op):\n    return op\n",
    "hooks.py": "SQUARE = 2\n",
    "adapt.py": "def as_value(x, cls):\n    return x if isinstance(x, cls) else cls(x)\n",
    "cells.py": "ZERO = 0.0\n",
    "kernel.py": "def dot(ws, xs):\n    return sum((wi * xi for wi, xi in zip(ws, xs)), start=0.0)\n",
    "student.py": "NAME = 'me'\n",
    "programs.py": "STEPS = 1\n",
    "main.py": "from engine import Value\nfrom nn import MLP\n\nif __name__ == '__main__':\n"
               "    print(MLP(2, [2, 1]), Value(1))\n",
}
KIT_NAMED_ENGINE = ("from observe import label\nfrom hooks import SQUARE\nfrom adapt import as_value\n"
                    "from cells import ZERO\nfrom student import NAME\nfrom programs import STEPS\n" + ENGINE)
KIT_NAMED_NN = nn("from engine import Value\nfrom kernel import dot")


@dataclass(frozen=True)
class Layout:
    id: str
    why: str                          # the layout, as real repositories have it
    files: dict                       # path below the submission -> text
    hand_in: str = ""                 # what is handed in, below the folder written ("": the folder itself)
    ambiguous: tuple = ()             # the engines one line must name (the first: the one graded)
    note: str = ""                    # a line of the report's notes holds this
    full: bool = True                 # full marks (False: the student's own unfinished engine is graded)
    absent: str = ""                  # no line of the report's notes holds this


LAYOUTS = (
    Layout("cloned-repo", "the repo cloned: micrograd/micrograd/ with setup.py, a test and a demo notebook beside",
           {**{f"micrograd/{k}": v for k, v in package("micrograd").items()},
            "micrograd/setup.py": "from setuptools import setup\nsetup(name='micrograd', packages=['micrograd'])\n",
            "micrograd/test/test_engine.py": "import torch\nfrom micrograd.engine import Value\n",
            "micrograd/demo.ipynb": notebook("from micrograd.engine import Value\nfrom micrograd.nn import MLP")},
           note="found your engine in micrograd/engine.py"),
    Layout("nested-wrapper", "a folder holding only another package folder",
           {"hw3/micrograd/micrograd/" + k: v for k, v in {
               "__init__.py": "", "engine.py": ENGINE, "nn.py": NN, "train.py": TRAIN}.items()}),
    Layout("package-beside-main", "nanograd/ beside the main.py that trains with it",
           {**package("nanograd"), "main.py": "from nanograd.nn import MLP\nmodel = MLP(2, [4, 1])\nprint(model)\n"},
           note="`nanograd` reaches"),
    Layout("train-beside-package", "nanograd/ holds engine and nn; train.py sits beside it and imports it",
           {"nanograd/__init__.py": "", "nanograd/engine.py": ENGINE, "nanograd/nn.py": nn(
               "from nanograd.engine import Value"),
            "train.py": "from nanograd.nn import MLP  # noqa: F401\n" + TRAIN}),
    Layout("src-layout", "src/tinygrad2/ with the engine in value.py, pyproject.toml and tests/ beside",
           {**{f"src/{k}": v for k, v in package("tinygrad2", engine="value").items()},
            "pyproject.toml": "[project]\nname = 'tinygrad2'\n",
            "tests/test_value.py": "from tinygrad2.value import Value\n\ndef test_add():\n"
                                   "    assert (Value(1) + 2).data == 3\n"}),
    Layout("notebook-and-package", "a lecture notebook that imports the package beside it",
           {**package("nanograd", own=False),
            "lecture.ipynb": notebook("from nanograd.engine import Value", "a = Value(2.0)\nprint(a)")}),
    Layout("single-micrograd-py", "a single micrograd.py holding everything, and a main.py importing it",
           {"micrograd.py": ALL_IN_ONE, "main.py": "from micrograd import Value, MLP\nprint(MLP(2, [1]))\n"}),
    Layout("micrograd-py-modules", "micrograd.py is the engine; nn.py and train.py import it by that name",
           {"micrograd.py": ENGINE, "nn.py": nn("from micrograd import Value"),
            "train.py": "import micrograd  # noqa: F401\n" + TRAIN}),
    Layout("clone-names", "engine_clone.py, nn_clone.py, train_clone.py and a notebook importing them flat",
           {"engine_clone.py": ENGINE, "nn_clone.py": nn("from engine_clone import Value"),
            "train_clone.py": TRAIN, "demo.ipynb": notebook("import engine_clone\nimport nn_clone")}),
    Layout("package-named-student", "a package named student, importing itself as student",
           package("student"), hand_in="student"),
    Layout("package-named-programs", "a package named programs, importing itself as programs",
           package("programs"), hand_in="programs"),
    Layout("package-named-autograd", "a package named autograd (as a library is) beside a demo.py",
           {**package("autograd"), "demo.py": "from autograd.nn import MLP\n"}),
    Layout("repo-with-setup-py", "loose engine.py, nn.py, train.py beside a setup.py importing setuptools",
           {"engine.py": ENGINE, "nn.py": nn("from engine import Value"), "train.py": TRAIN,
            "setup.py": "from setuptools import setup\nsetup(name='hw', py_modules=['engine', 'nn', 'train'])\n"},
           absent="setuptools"),
    Layout("package-named-main", "a package named main beside a run.py",
           {**package("main"), "run.py": "from main.nn import MLP\n"}),
    Layout("modules-named-as-the-kits", "loose files whose helpers are named observe, hooks, adapt, cells, "
           "kernel, student, programs and main, imported flat",
           {**{f"hw/{k}": v for k, v in KIT_NAMED.items()}, "hw/engine.py": KIT_NAMED_ENGINE,
            "hw/nn.py": KIT_NAMED_NN, "hw/train.py": TRAIN}, hand_in="hw"),
    Layout("flat-import-in-package", "nanograd/nn.py imports `from engine import Value`, as run from inside it",
           {**package("nanograd"), "nanograd/nn.py": nn("from engine import Value"), "main.py": "import nanograd\n"}),
    Layout("lazy-imports", "nanograd's nn and train import the engine inside functions only",
           {"nanograd/__init__.py": "", "nanograd/engine.py": ENGINE, "nanograd/nn.py": LAZY_NN,
            "nanograd/train.py": LAZY_TRAIN, "main.py": "import nanograd.nn\n"}),
    Layout("kernel-package", "a package named kernel with cells.py holding the engine",
           {**package("kernel", engine="cells"), "app.py": "from kernel.cells import Value\n"}),
    Layout("init-holds-everything", "nanograd/__init__.py holds the engine, nn and train; a main.py beside",
           {"nanograd/__init__.py": ALL_IN_ONE, "main.py": "import nanograd\n"},
           note="found your engine in nanograd/__init__.py", absent="no nanograd/"),
    Layout("init-holds-the-engine", "nanograd/__init__.py defines Value; nn.py imports it from the package",
           {"nanograd/__init__.py": ENGINE, "nanograd/nn.py": nn("from nanograd import Value"),
            "nanograd/train.py": TRAIN, "main.py": "import nanograd\n"}),
    Layout("engine-subpackage", "nanograd/engine/ a package of its own: value.py, re-exported by its __init__.py",
           {"nanograd/__init__.py": "", "nanograd/engine/__init__.py": "from .value import Value\n",
            "nanograd/engine/value.py": ENGINE, "nanograd/nn.py": nn("from nanograd.engine import Value"),
            "nanograd/train.py": TRAIN, "main.py": "import nanograd\n"}),
    Layout("training-script-beside", "nanograd/ holds engine and nn; main.py beside holds mse_loss and train, "
           "and trains at its top level for longer than the import may take",
           {"nanograd/__init__.py": "", "nanograd/engine.py": ENGINE, "nanograd/nn.py": nn(
               "from nanograd.engine import Value"),
            "main.py": "import time\nfrom nanograd.nn import MLP\n" + TRAIN + "\ntime.sleep(600)\n"},
           full=False, note="main.py ran longer than"),
    Layout("class-named-scalar", "the engine's class is called Scalar, in micrograd/ as the handout has it",
           {"micrograd/__init__.py": "", "micrograd/engine.py": ENGINE.replace("Value", "Scalar"),
            "micrograd/nn.py": NN.replace("Value", "Scalar"), "micrograd/train.py": TRAIN},
           note="your engine's class is `Scalar`: the kit uses it as `Value`"),
    Layout("two-packages", "two copies of the engine's package, v1/ and v2/, the same in all but name",
           {**{f"v1/{k}": v for k, v in package("micrograd", own=False).items()},
            **{f"v2/{k}": v for k, v in package("micrograd", own=False).items()}},
           ambiguous=("v1/micrograd/engine.py", "v2/micrograd/engine.py")),
    Layout("two-engines-beside-main", "nanograd/ and tinygrad/ beside a main.py, each a whole engine",
           {**package("nanograd"), **package("tinygrad"), "main.py": "import nanograd\n"},
           ambiguous=("nanograd/engine.py", "tinygrad/engine.py")),
)


# the student's own engine, unfinished (no backward() yet), beside a copy of the lecture's kept for reference
UNFINISHED = ALL_IN_ONE.replace("    def backward(self):", "    def backprop(self):")
assert UNFINISHED != ALL_IN_ONE
FOUND = "found your engine in"  # the note of an engine found outside the usual places

GUARDS = (
    Layout("src-flat", "src/ holding engine.py and nn.py (no __init__.py), imported as `src.engine` by them "
           "and by tests/, notebooks/ beside",
           {"src/engine.py": ENGINE, "src/nn.py": nn("from src.engine import Value"), "src/train.py": TRAIN,
            "tests/test_value.py": "from src.engine import Value\n\n\ndef test_add():\n"
                                   "    assert (Value(1) + 2).data == 3\n",
            "notebooks/from_scratch.ipynb": notebook("from src.nn import MLP", "MLP(2, [3, 1])")}),
    Layout("own-engine-beside-a-reference-copy", "hw.py, the student's unfinished engine, and the lecture's "
           "micrograd/ kept in reference/ (imported by nothing): hw.py is graded, not the copy",
           {"hw.py": UNFINISHED, **{f"reference/{k}": v for k, v in package("micrograd", own=False).items()}},
           full=False),
    Layout("package-and-lecture-notebook", "micrograd/ and the lecture's notebook defining its own Value beside it",
           {**package("micrograd"), "lecture.ipynb": notebook(ENGINE, "a = Value(2.0)")}),
    Layout("engine-and-its-backup", "engine.py beside engine_old.py, an earlier whole engine",
           {"engine.py": ENGINE, "engine_old.py": ENGINE, "nn.py": nn("from engine import Value"), "train.py": TRAIN}),
)


def submission(layout: Layout, root: Path) -> Path:
    """The layout written under root; the path handed in."""
    if root.exists():
        shutil.rmtree(root)
    for rel, text in layout.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / layout.hand_in if layout.hand_in else root
