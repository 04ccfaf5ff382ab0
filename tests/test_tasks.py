"""Is every row of the task table complete, and does everything that names a task derive from it?

Adding an op task is one row in autograder/tasks.py plus its solution, its reference method
and its hand cases: `missing_pieces` lists what a row still lacks, and the parametrised test
fails on any row that lacks something.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

import reference
from autograder import tasks
from autograder.cases import HAND, PUBLIC_SEED, build_cases
from autograder.cases.hints import HINTS
from autograder.cases.random_nn import GENERATORS
from autograder.config import Rubric
from autograder.engines import torch_api
from autograder.paths import KIT_ROOT
from autograder.tasks import ACTIVATIONS, OPS, TABLE, Op, Task

DESIGN_IDS = ("add", "mul", "pow", "tanh", "exp", "relu", "backward", "neuron", "layer", "mlp",
              "parameters", "zero_grad", "mse_loss", "train")


def _apply(api, op: Op, name: str, a: float, b: float | None):
    """out, [the Value operands] of op on a (and b, or the exponent b for a power)."""
    x = api.Value(a)
    if op.form == "binary":
        y = api.Value(b)
        return {"add": lambda: x + y, "mul": lambda: x * y}[name](), [x, y]
    if op.form == "power":
        return x ** b, [x]
    return getattr(x, name)(), [x]


def _points(op: Op, rng: random.Random) -> list[tuple[float, float | None]]:
    """Inputs in the op's domain, and its kinks."""
    out = []
    while len(out) < 6:
        a = rng.uniform(-3, 3)
        b = rng.choice((2, 3, -1, 0.5)) if op.form == "power" else rng.uniform(-3, 3)
        if op.fits(a, b if op.form == "power" else None):
            out.append((a, b if op.form != "method" else None))
    return out + [(k, None) for k in op.kinks]


def missing_pieces(task: Task) -> list[str]:
    """What a row of the table still lacks, in words."""
    missing = []
    solution = KIT_ROOT / "solutions" / "micrograd" / f"{task.module}.py"
    if f"BEGIN SOLUTION {task.id}:" not in solution.read_text(encoding="utf-8"):
        missing.append(f"its solution (`# BEGIN SOLUTION {task.id}: ...` in solutions/micrograd/{task.module}.py)")
    if task.id not in HAND:
        missing.append("its hand cases (an entry in autograder.cases.HAND)")
    if task.id not in HINTS:
        missing.append("its hint (autograder/cases/hints.py)")
    if task.family in ("nn", "train") and task.id not in GENERATORS:
        missing.append("its random cases (autograder/cases/random_nn.GENERATORS)")
    if task.op and task.op.form == "method":
        for api in ("reference", "torch"):
            engine = reference.Value if api == "reference" else torch_api().Value
            if not callable(getattr(engine, task.id, None)):
                missing.append(f"a {task.id}() method in the {api} engine")
    return missing


@pytest.mark.parametrize("task", TABLE, ids=lambda t: t.id)
def test_is_every_row_of_the_table_complete(task):
    assert missing_pieces(task) == []


def test_does_the_check_say_what_a_new_op_row_lacks():
    """A row added without the rest (cosh) is named for each piece it lacks: the test can fail."""
    row = Task("cosh", "the _backward of cosh", 5, "engine", "op",
               Op("cosh", "method", math.cosh, lambda a: (math.sinh(a),)))
    missing = " | ".join(missing_pieces(row))
    for piece in ("its solution", "its hand cases", "its hint", "reference engine", "torch engine"):
        assert piece in missing


def test_are_the_task_ids_the_designs_in_its_order():
    assert tasks.TASK_IDS == DESIGN_IDS


def test_do_points_modules_and_titles_come_from_the_table():
    assert dict(Rubric().points) == {t.id: t.points for t in TABLE}
    assert Rubric().max_score == 100
    assert dict(tasks.TASK_MODULE) == {t.id: t.module for t in TABLE}
    assert dict(tasks.TASKS) == {t.id: t.title for t in TABLE}
    assert {t.module for t in TABLE} == {"engine", "nn", "train"}


@pytest.mark.parametrize("engine", ["reference", "torch"])
@pytest.mark.parametrize("name", list(OPS))
def test_do_the_engines_agree_with_the_tables_forward_and_derivative(name, engine):
    """The table's maths is what both oracles compute: forward, and d out / d each operand."""
    op = OPS[name]
    api = reference if engine == "reference" else torch_api()
    for a, b in _points(op, random.Random(name)):
        out, operands = _apply(api, op, name, a, b)
        out.backward()
        args = (a,) if op.form == "method" else (a, b)
        assert math.isclose(out.data, op.forward(*args), rel_tol=1e-12, abs_tol=1e-12)
        grads = op.derivative(*args)[:len(operands)]
        for x, g in zip(operands, grads):
            assert math.isclose(x.grad, g, rel_tol=1e-9, abs_tol=1e-12), (name, a, b, x.grad, g)


@pytest.mark.parametrize("name", [n for n, op in OPS.items() if op.kinks])
def test_is_every_kink_hit_by_a_public_hand_case_and_a_hidden_case(name):
    """Where the derivative is a convention (relu at 0), cases must land exactly on it."""
    for kink in OPS[name].kinks:
        public = [c for c in build_cases(seed=PUBLIC_SEED, visibility="public") if c.task == name]
        hidden = [c for c in build_cases(seed=1234, visibility="hidden") if c.task == name]
        assert any(c.id.startswith(f"{name}/hand-") and c.params.get("a") == kink for c in public)
        assert any(c.params.get("a") == kink for c in hidden)


def test_are_random_inputs_kept_off_the_kinks():
    op = OPS["relu"]
    assert not op.fits(0.0) and not op.fits(0.01) and op.fits(0.2) and op.fits(-2.0)


def test_are_the_activations_method_ops_that_every_engine_and_the_rubric_accept():
    assert ACTIVATIONS == ("tanh", "relu")
    assert all(OPS[a].form == "method" for a in ACTIVATIONS)
    for activation in ACTIVATIONS:
        for api in (reference, torch_api()):
            assert api.Neuron(2, activation=activation).activation == activation
    with pytest.raises(ValueError, match="activation must be one of tanh, relu"):
        from autograder.config import from_mapping
        from_mapping({"activation": "exp"})


def test_does_an_op_row_without_the_activation_flag_stay_out_of_neurons():
    """exp is an op, not an activation: a neuron refuses it in both oracles."""
    assert not OPS["exp"].activation
    for api in (reference, torch_api()):
        with pytest.raises(ValueError, match="activation must be one of"):
            api.Neuron(2, activation="exp")


def test_is_a_row_a_frozen_value():
    row = TABLE[0]
    with pytest.raises(AttributeError):
        row.points = 10  # type: ignore[misc]
    assert replace(row, points=10).points == 10 and row.points == 5
