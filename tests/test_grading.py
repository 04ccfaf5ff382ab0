"""Is the torch ban judged by what the engine loads, and does a numpy engine get its marks?

Real gradings of the public cases (the goldens cache is shared with the other tests).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.config import Rubric
from autograder.grading import grade_path
from autograder.paths import SOLUTIONS

RUBRIC = Rubric(hidden_seed=1)


def solutions(tmp_path: Path, **extra: str) -> Path:
    """A copy of the solutions' micrograd with extra files (name -> text)."""
    root = tmp_path / "work"
    shutil.copytree(SOLUTIONS / "micrograd", root / "micrograd")
    for name, text in extra.items():
        path = root / "micrograd" / name
        path.write_text(text)
    return root


def grade(root: Path):
    return grade_path(root, rubric=RUBRIC, include_hidden=False)


@pytest.mark.parametrize("name", ["test_engine.py", "onehot.py"])
def test_a_file_the_engine_never_loads_may_import_torch(tmp_path, name):
    """Does a student's own test file (or an unused helper) importing torch cost nothing?"""
    report = grade(solutions(tmp_path, **{name: "import torch\nfrom micrograd.engine import Value\n"}))
    assert report.error is None
    assert report.score == report.max_score


def test_a_loaded_module_importing_torch_refuses_the_submission_with_the_reason(tmp_path):
    root = solutions(tmp_path, **{"helpers.py": "import torch\n"})
    engine = root / "micrograd" / "engine.py"
    engine.write_text("from micrograd import helpers\n" + engine.read_text())
    report = grade(root)
    assert report.score == 0
    assert report.error == ("micrograd/helpers.py:1: ImportError: torch is not allowed in this assignment: "
                            "your engine must compute its own gradients")


def test_an_init_importing_torch_refuses_the_submission(tmp_path):
    report = grade(solutions(tmp_path, **{"__init__.py": "import torch\n"}))
    assert report.score == 0 and report.error.startswith("micrograd/__init__.py:1: ImportError: torch is not allowed")


def test_an_engine_computing_with_numpy_gets_full_marks(tmp_path):
    """np.tanh / np.exp give np.float64 data: graded like floats."""
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    source = engine.read_text().replace("import math", "import math\nimport numpy as np", 1)
    source = source.replace("math.tanh(", "np.tanh(").replace("math.exp(", "np.exp(")
    assert source.count("np.") >= 2
    engine.write_text(source.replace("self.data = data", "self.data = np.float64(data)", 1))
    report = grade(root)
    assert report.error is None, report.error
    assert report.score == report.max_score, [(t.id, c.message) for t in report.tasks for c in t.cases
                                              if c.status != "passed"][:3]


def with_printing_mul_bug(tmp_path: Path) -> Path:
    """mul's _backward forgets out.grad and prints what it computes, as a student debugging it would."""
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    source = engine.read_text().replace(
        "            self.grad += other.data * out.grad\n            other.grad += self.data * out.grad\n",
        "            print('mul backward: a =', self.data, 'b =', other.data)\n"
        "            self.grad += other.data\n            other.grad += self.data\n", 1)
    assert "print('mul backward" in source
    engine.write_text(source)
    return root


def test_what_a_failing_case_printed_is_in_the_report(tmp_path):
    report = grade(with_printing_mul_bug(tmp_path))
    failing = [c for c in report.task("mul").cases if c.status == "failed"]
    assert failing and all(c.output.startswith("mul backward: a = ") for c in failing)
    assert all(c.output == "" for t in report.tasks if t.id != "mul" for c in t.cases if c.status == "passed")


def test_prints_at_import_are_shown_with_the_import_failure(tmp_path):
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    engine.write_text("print('loading my engine')\n" + engine.read_text() + "\nundefined_name\n")
    report = grade(root)
    assert report.import_output == "loading my engine"
    assert any("NameError" in note for note in report.notes)


def test_prints_at_import_of_a_working_submission_are_not_noise(tmp_path):
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    engine.write_text("print('loading my engine')\n" + engine.read_text())
    assert grade(root).import_output == ""


def test_the_pytest_route_shows_what_a_failing_case_printed(tmp_path):
    """`pytest --submission` (the handout's pytest): the prints under the failing case."""
    root = with_printing_mul_bug(tmp_path)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--submission", str(root),
                           "--rootdir", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "your code printed:" in done.stdout and "| mul backward: a = " in done.stdout, done.stdout
    assert "1 failed, 13 passed" in done.stdout, done.stdout


def test_a_module_that_does_not_import_is_said_once_per_task_without_derivations(tmp_path):
    """nn.py with a syntax error: each nn task says why once, with file:line, not a derivation per case."""
    import io

    from rich.console import Console

    from autograder.report.text import print_report

    root = solutions(tmp_path)
    nn = root / "micrograd" / "nn.py"
    nn.write_text(nn.read_text().replace("class Neuron(Module):", "class Neuron(Module)", 1))
    report = grade(root)
    neuron = report.task("neuron")
    assert neuron.score == 0 and neuron.cases
    assert {c.message for c in neuron.cases} == {c.message for c in neuron.cases[:1]}
    assert "nn.py:" in neuron.cases[0].message and "SyntaxError" in neuron.cases[0].message
    assert all(c.details == () for c in neuron.cases), "no derivation for a case that could not run"
    assert report.task("mul").score == report.task("mul").max_score
    out = io.StringIO()
    print_report(report, Console(file=out, width=200))
    text = out.getvalue()
    assert text.count("so Neuron is missing") <= 2  # the neuron task, and parameters' neuron cases
    assert "derivation:" not in text


def test_one_task_checked_alone_scores_what_a_full_check_gives_it(tmp_path):
    """With backward() broken, are the ops' end-to-end cases waived under --task too (not charged to pow)?"""
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    engine.write_text(engine.read_text().replace("for v in reversed(topo):", "for v in topo:"))
    full = grade(root)
    alone = grade_path(root, rubric=RUBRIC, include_hidden=False, tasks=["pow", "mul"])
    assert [t.id for t in alone.tasks] == ["mul", "pow"]  # backward ran, unreported
    by_id = {t.id: t for t in full.tasks}
    assert by_id["backward"].score < by_id["backward"].max_score
    for task in alone.tasks:
        assert task.score == by_id[task.id].score == task.max_score
        assert any(not c.counted for c in task.cases)  # its end-to-end cases failed and were waived


def test_does_an_operation_that_returns_nothing_say_which_and_what_to_add(tmp_path):
    root = solutions(tmp_path)
    engine = root / "micrograd" / "engine.py"
    source = engine.read_text()
    at = source.index("        return out", source.index("    def tanh(self):"))
    engine.write_text(source[:at] + "        pass" + source[at + len("        return out"):])
    tanh = grade(root).task("tanh")
    assert tanh.score == 0
    assert all("a.tanh() returned None, not a Value: does tanh end with `return out`?" in c.message
               for c in tanh.cases if c.visibility == "public")


def test_does_a_loss_returned_as_a_number_say_to_return_the_value(tmp_path):
    root = solutions(tmp_path)
    train = root / "micrograd" / "train.py"
    train.write_text(train.read_text().replace(
        "    return sum((p - t)**2 for p, t in zip(predictions, targets)) / len(predictions)",
        "    return (sum((p - t)**2 for p, t in zip(predictions, targets)) / len(predictions)).data"))
    mse = grade(root).task("mse_loss")
    assert mse.score == 0
    assert all("mse_loss returned" in c.message and "a number, not a Value: return the Value itself (not its .data)"
               in c.message for c in mse.cases)


def test_does_a_training_loop_with_a_tqdm_progress_bar_run_every_step(tmp_path):
    """tqdm is not installed where student code runs, and is a progress bar, not computation: `for k in
    tqdm(range(steps))` runs every step, and the bar's own calls do nothing."""
    root = solutions(tmp_path)
    train = root / "micrograd" / "train.py"
    source = train.read_text()
    assert source.count("for _ in range(steps):") == 1
    train.write_text("from tqdm.auto import tqdm, trange\nimport tqdm as progress\n" + source.replace(
        "for _ in range(steps):", "for _ in tqdm(range(steps), desc='training'):") +
        "\nwith progress.tqdm(total=3) as bar:\n    bar.update(1)\n    bar.set_postfix(loss=1.0)\n"
        "assert list(trange(3)) == [0, 1, 2] and len(tqdm([5, 6])) == 2\n")
    report = grade(root)
    assert report.score == report.max_score, [(t.id, t.score) for t in report.tasks if t.score < t.max_score]
