"""Does the child import a student's package the way the student wrote it, and say clearly when it can't?

Real child processes: each test writes a package (the solutions with some files
changed) and runs a fake program or two on it through run_cases.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder.cases.model import Case
from autograder.runner import Limits, run_cases

KIT = Path(__file__).resolve().parents[2]
FAKE = KIT / "tests" / "runner" / "fake_programs"
ADD = Case("add/one", "add", "basic.add", {"a": 2.0, "b": -3.0})
SAME = Case("neuron/same", "neuron", "basic.same_value", {})
TRAIN = Case("train/probe", "train", "basic.train_probe", {})
FORBIDS = "is not allowed in this assignment: your engine must compute its own gradients"


def package(tmp_path: Path, **files: str | None) -> Path:
    """The solutions' micrograd, with files replaced (text) or removed (None)."""
    root = tmp_path / "sub"
    shutil.copytree(KIT / "solutions" / "micrograd", root / "micrograd")
    for name, text in files.items():
        path = root / "micrograd" / (name + ".py")
        if text is None:
            path.unlink()
        else:
            path.write_text(text)
    return root


def nn_importing(line: str) -> str:
    source = (KIT / "solutions" / "micrograd" / "nn.py").read_text()
    return source.replace("from micrograd.engine import Value", line)


def run(root: Path, cases=(ADD, SAME, TRAIN), **kw):
    return run_cases(root, list(cases), limits=Limits(case_timeout=2.0), programs_dir=FAKE, **kw)


@pytest.mark.parametrize("line", [
    "from micrograd.engine import Value",
    "from .engine import Value",
    "from engine import Value",
    "import engine\nValue = engine.Value",
])
def test_every_way_of_importing_engine_gives_the_same_value_class(tmp_path, line):
    result = run(package(tmp_path, nn=nn_importing(line)))
    assert result.imports.errors == {}
    assert result.outcomes["neuron/same"].obs == {"same": 1.0}
    assert result.outcomes["add/one"].status == "ok"


@pytest.mark.parametrize("line", [
    "from my_micrograd.engine import Value",
    "import my_micrograd\nValue = my_micrograd.engine.Value",
    "import crudgrad.engine\nValue = crudgrad.engine.Value",
    "from crudgrad import engine\nValue = engine.Value",
])
def test_does_the_students_own_name_for_their_package_reach_the_same_modules(tmp_path, line):
    """The kit put the files in its micrograd package; the names load.py found them imported by
    (own_packages.txt, issue 18) reach it: the very module objects, each imported once."""
    root = package(tmp_path, nn=nn_importing(line))
    (root / "own_packages.txt").write_text("my_micrograd\ncrudgrad\n")
    result = run(root)
    assert result.imports.errors == {}
    assert result.outcomes["neuron/same"].obs == {"same": 1.0}


def test_is_an_own_package_name_not_listed_still_an_import_error(tmp_path):
    result = run(package(tmp_path, nn=nn_importing("from my_micrograd.engine import Value")))
    assert "my_micrograd" in result.imports.errors["nn"]


def test_a_syntax_error_is_one_line_with_the_file_and_line(tmp_path):
    engine = (KIT / "solutions" / "micrograd" / "engine.py").read_text().replace(
        "    def backward(self):", "    def backward(self)", 1)
    line = engine.splitlines().index("    def backward(self)") + 1
    result = run(package(tmp_path, engine=engine))
    assert result.imports.errors["engine"] == f"engine.py:{line}: SyntaxError: expected ':'"
    assert result.imports.errors["nn"] == "nn.py:7: needs engine.py, which did not import"
    assert "train" not in result.imports.errors  # train.py imports nothing of engine
    add = result.outcomes["add/one"]
    assert add.status == "error"
    assert add.message == (f"engine.py did not import, so Value is missing "
                           f"(engine.py:{line}: SyntaxError: expected ':')")
    assert "/tmp" not in str(result.imports.errors)


def test_messages_use_the_students_own_file_names(tmp_path):
    result = run(package(tmp_path, engine="x = (\n"), files={"engine": "hw3/micrograd/engine.py"})
    assert result.imports.errors["engine"].startswith("hw3/micrograd/engine.py:1: SyntaxError:")


def test_messages_never_show_the_private_folder(tmp_path):
    engine = (KIT / "solutions" / "micrograd" / "engine.py").read_text()
    engine += "\nimport os\nopen(os.path.join(os.path.dirname(__file__), 'weights.txt'))\n"
    result = run(package(tmp_path, engine=engine))
    message = result.imports.errors["engine"]
    assert message.endswith("FileNotFoundError: [Errno 2] No such file or directory: 'micrograd/weights.txt'")
    assert str(tmp_path) not in message


@pytest.mark.parametrize("module, line, shown", [
    ("engine", "import torch", "torch"),
    ("engine", "import jax.numpy as jnp", "jax"),
    ("nn", "from tensorflow import keras", "tensorflow"),
])
def test_forbidden_libraries_can_not_be_imported(tmp_path, module, line, shown):
    source = (KIT / "solutions" / "micrograd" / f"{module}.py").read_text()
    result = run(package(tmp_path, **{module: f"{line}\n{source}"}))
    assert result.imports.errors[module] == f"{module}.py:1: ImportError: {shown} {FORBIDS}"


def test_a_library_that_is_not_there_is_named(tmp_path):
    """Does a library the assignment does not allow get one line saying what it allows?"""
    result = run(package(tmp_path, nn="import random\nimport pandas as pd\n" + nn_importing("from engine import Value")))
    assert result.imports.errors == {"nn": "nn.py:2: ModuleNotFoundError: No module named 'pandas': "
                                           "this assignment lets your code import the Python standard library "
                                           "and numpy only"}
    assert result.outcomes["neuron/same"].message.startswith("nn.py did not import, so Neuron is missing")
    assert result.outcomes["add/one"].status == "ok"  # engine is fine: its task isn't touched


def test_plotting_libraries_are_harmless_stand_ins(tmp_path):
    """A notebook's demo cells plot at import time: that must not cost the whole submission."""
    engine = (KIT / "solutions" / "micrograd" / "engine.py").read_text() + (
        "\nimport matplotlib.pyplot as plt\nfrom graphviz import Digraph\nfrom IPython.display import display\n"
        "fig, ax = plt.subplots(1, 2)\nax.plot([1, 2])\nplt.show()\n"
        "with plt.style.context('x'):\n    display(Digraph(format='svg').node('a'))\n")
    result = run(package(tmp_path, engine=engine))
    assert result.imports.errors == {}
    assert result.outcomes["add/one"].status == "ok"


def test_missing_files_are_listed_and_their_pieces_looked_for_elsewhere(tmp_path):
    train = (KIT / "solutions" / "micrograd" / "train.py").read_text()
    nn = (KIT / "solutions" / "micrograd" / "nn.py").read_text()
    result = run(package(tmp_path, train=None, nn=nn + "\n" + train))  # karpathy-style: no train.py
    assert result.imports.missing_files == ("train",)
    assert result.imports.errors == {}
    assert result.outcomes["train/probe"].obs == {"has_mse": 1.0}  # found in nn.py

    result = run(package(tmp_path / "2", train=None))
    assert result.outcomes["train/probe"].message == "there is no train.py, so no train"


def test_a_class_that_is_not_there_is_named(tmp_path):
    nn = (KIT / "solutions" / "micrograd" / "nn.py").read_text().replace("class Neuron(", "class Neurone(")
    result = run(package(tmp_path, nn=nn.replace("Neuron(nin", "Neurone(nin")))
    assert result.outcomes["neuron/same"].message == "nn.py has no Neuron"


def test_a_broken_init_does_not_stop_the_modules(tmp_path):
    result = run(package(tmp_path, __init__="from .engine import Value\nimport pandas\n"))
    assert result.imports.errors == {"__init__": "__init__.py:2: ModuleNotFoundError: No module named 'pandas': "
                                                 "this assignment lets your code import the Python standard "
                                                 "library and numpy only"}
    assert {o.status for o in result.outcomes.values()} == {"ok"}


def test_prints_and_exit_at_import_time(tmp_path):
    engine = (KIT / "solutions" / "micrograd" / "engine.py").read_text()
    noisy = engine + "\nprint('demo' * 10_000)\nimport sys\nsys.exit(0)\n"
    result = run(package(tmp_path, engine=noisy))
    line = noisy.splitlines().index("sys.exit(0)") + 1
    assert result.imports.errors["engine"] == f"engine.py:{line}: SystemExit: your code called exit(0)"


def test_a_helper_module_imported_by_its_top_level_name(tmp_path):
    engine = "from helpers import make\n" + (KIT / "solutions" / "micrograd" / "engine.py").read_text()
    result = run(package(tmp_path, engine=engine, helpers="def make():\n    return 1\n"))
    assert result.imports.errors == {}
    assert result.outcomes["add/one"].status == "ok"


def test_stubs_are_missing_not_errors():
    result = run(KIT / "exercises", [ADD, TRAIN])
    add = result.outcomes["add/one"]
    assert add.status == "missing"
    assert add.message.startswith("add: pass out.grad on")
    assert result.outcomes["train/probe"].obs == {"has_mse": 1.0}
