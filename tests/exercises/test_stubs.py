"""Is every stub in exercises/ in place, named by its task, and is exercises/ exactly what solutions/ generates?"""
from __future__ import annotations

import ast
import re

import pytest

from autograder import paths
from autograder.engines import package_api
from autograder.exercises import check_exercises, write_exercises
from autograder.tasks import TASK_IDS

EX = package_api(paths.EXERCISES, "exercises")


def _closure(make):
    """Build a node with `make` (forward code is given), then call its stubbed _backward()."""
    def call():
        out = make(EX.Value(2.0), EX.Value(3.0))
        out.grad = 1.0
        out._backward()
    return call


def _mlp_parameters():
    mlp = EX.MLP.__new__(EX.MLP)  # MLP.__init__ is itself a stub (task mlp)
    mlp.layers = [EX.Layer(2, 3), EX.Layer(3, 1)]
    return mlp.parameters()


# One way to reach every stub, by the task id its message must start with.
STUB_CALLS = [
    ("add", _closure(lambda a, b: a + b)),
    ("mul", _closure(lambda a, b: a * b)),
    ("pow", _closure(lambda a, b: a**2)),
    ("tanh", _closure(lambda a, b: a.tanh())),
    ("exp", _closure(lambda a, b: a.exp())),
    ("relu", _closure(lambda a, b: a.relu())),
    ("backward", lambda: EX.Value(2.0).backward()),
    ("neuron", lambda: EX.Neuron(2)([1.0, 2.0])),
    ("layer", lambda: EX.Layer(2, 3)([1.0, 2.0])),
    ("mlp", lambda: EX.MLP(2, [3, 1])),
    ("parameters", lambda: EX.Neuron(2).parameters()),
    ("parameters", lambda: EX.Layer(2, 3).parameters()),
    ("parameters", _mlp_parameters),
    ("zero_grad", lambda: EX.Module().zero_grad()),
    ("mse_loss", lambda: EX.mse_loss([EX.Value(1.0)], [0.0])),
    ("train", lambda: EX.train(object(), [[1.0]], [1.0], 1, 0.1)),
]


@pytest.mark.parametrize("task, call", STUB_CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(STUB_CALLS)])
def test_stub_raises_not_implemented_with_its_task_id(task, call):
    """Does this stub raise NotImplementedError whose message starts with its task id?"""
    with pytest.raises(NotImplementedError, match=rf"^{re.escape(task)}: \S"):
        call()


def test_every_task_has_a_stub_call():
    """Does the table above reach a stub of every task id?"""
    assert {task for task, _ in STUB_CALLS} == set(TASK_IDS)


def _stub_tasks() -> list[str]:
    """The task id of every `raise NotImplementedError("<task>: ...")` in exercises/."""
    tasks = []
    for path in sorted(paths.EXERCISES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and getattr(node.exc.func, "id", None) == "NotImplementedError"):
                (message,) = [arg.value for arg in node.exc.args]
                tasks.append(message.partition(":")[0])
    return tasks


def test_task_ids_in_exercises_are_exactly_the_kits_task_ids():
    """Is every task id of autograder.tasks stubbed somewhere in exercises/, and no other id?"""
    assert set(_stub_tasks()) == set(TASK_IDS)


def test_exercises_are_in_sync_with_solutions():
    """Does `autograder exercises --check` find nothing to regenerate?"""
    assert check_exercises(paths.SOLUTIONS, paths.EXERCISES) == []


def test_regenerating_exercises_is_byte_identical(tmp_path):
    """Does generating exercises/ from solutions/ into a fresh folder give the committed files, byte for byte?"""
    write_exercises(paths.SOLUTIONS, tmp_path)
    fresh = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.py")}
    committed = {p.relative_to(paths.EXERCISES): p.read_bytes() for p in paths.EXERCISES.rglob("*.py")
                 if "__pycache__" not in p.parts}
    assert fresh.keys() == committed.keys()
    for rel in fresh:
        assert fresh[rel] == committed[rel], rel
