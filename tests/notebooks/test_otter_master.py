"""Is the otter master notebook made from solutions/ and the case library, and nothing else?"""
from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.config import Rubric
from autograder.notebooks.otter_master import master_notebook
from autograder.notebooks.solution_cells import for_otter, module_source
from autograder.paths import KIT_ROOT
from autograder.tasks import TASK_IDS

RUBRIC = replace(Rubric(), hidden_seed=4242, points={**Rubric().points, "mul": 7.5})


@pytest.fixture(scope="module")
def master():
    return master_notebook(RUBRIC)


def questions(master) -> dict[str, dict]:
    """name -> the question's config as otter reads it (yaml), from its BEGIN QUESTION cell."""
    raw = [c.source for c in master.cells if c.cell_type == "raw" and c.source.startswith("# BEGIN QUESTION")]
    return {q["name"]: q for q in (yaml.safe_load(r.split("\n", 1)[1]) for r in raw)}


def test_is_there_one_question_per_task_with_the_rubrics_points(master):
    found = questions(master)
    assert list(found) == ["warmup", *TASK_IDS]
    assert found["warmup"]["points"] == 0
    assert all(isinstance(p, float) for q in list(found.values())[1:] for p in q["points"])  # yaml read floats
    assert sum(found["mul"]["points"]) == pytest.approx(7.5, abs=1e-12)


def test_are_a_questions_points_on_its_parts_tests_only_one_each(master):
    """otter pays a question by the tests that pass: the cases' tests are worth 0, the parts' hold the
    points, in the order of the question's points list (scoring/parts.py)."""
    cells = [c.source for c in master.cells if c.cell_type == "code" and "notebook_check" in c.source]
    for name, config in list(questions(master).items())[1:]:
        tests = [t for t in cells if f"case({name!r}" in t or f'case("{name}/' in t or f"case('{name}/" in t
                 or f"score_part({name!r}," in t]
        assert len(tests) == len(config["points"]), name
        for test, points in zip(tests, config["points"]):
            assert (points > 0) == ("score_part(" in test), (name, test)
            assert "score_part(" not in test or test.startswith("# HIDDEN\n")


def test_is_there_one_test_per_case_hidden_ones_marked(master):
    tests = [c.source for c in master.cells if c.cell_type == "code" and "notebook_check import case" in c.source]
    public = build_cases(seed=PUBLIC_SEED, visibility="public")
    hidden = build_cases(seed=4242, visibility="hidden")
    assert len(tests) == len(public) + len(hidden)
    assert sum(t.startswith("# HIDDEN\n") for t in tests) == len(hidden)
    assert all("/hidden-" in t for t in tests if t.startswith("# HIDDEN"))
    assert not any("/hidden-" in t for t in tests if not t.startswith("# HIDDEN"))


@pytest.mark.parametrize("module", ["engine", "nn", "train"])
def test_does_otters_own_stripping_give_the_exercises_stubs(module):
    from otter.assign.solutions import replace_solutions

    student = "\n".join(replace_solutions(for_otter(module_source(module)).split("\n"), "python"))
    exercise = (KIT_ROOT / "exercises" / "micrograd" / f"{module}.py").read_text()
    exercise = "".join(l for l in exercise.splitlines(keepends=True) if not l.startswith("from micrograd"))
    assert student == exercise


def test_does_the_solution_version_run_as_the_solutions_do():
    """The PROMPT block is a no-op string in the solution version: the code still computes."""
    namespace: dict = {}
    exec(compile(for_otter(module_source("engine")), "engine", "exec"), namespace)
    a = namespace["Value"](2.0)
    b = a * a
    b.backward()
    assert a.grad == 4.0


def test_does_the_warmup_define_functions_only_and_pass_its_checks_when_solved():
    """The kit runs every code cell when it grades the notebook: the warm-up must not call a stub."""
    import numpy as np

    from autograder.notebooks import warmup
    from autograder.notebooks.otter_master import _otter_block

    stubbed = warmup.code(_otter_block, "    raise NotImplementedError('df')\n", "    raise NotImplementedError('s')\n")
    namespace: dict = {}
    exec(compile(stubbed, "warmup", "exec"), namespace)  # defines, calls nothing
    assert all(eval(check, namespace) for check in warmup.CHECKS)  # the solution version passes
    assert isinstance(namespace["xs"], np.ndarray)
