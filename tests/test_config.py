"""Does the rubric read allowed_imports, and refuse lists that can't work?"""
from __future__ import annotations

import tomllib

import pytest

from autograder.config import ConfigError, Rubric, from_mapping, load_rubric
from autograder.paths import KIT_ROOT


def test_numpy_is_allowed_by_default_and_in_the_kits_rubric():
    assert Rubric().allowed_imports == ("numpy",)
    assert load_rubric(KIT_ROOT / "assignment.toml").allowed_imports == ("numpy",)


def test_allowed_imports_are_read_in_order_once_each():
    assert from_mapping({"allowed_imports": ["numpy", "sympy", "numpy"]}).allowed_imports == ("numpy", "sympy")
    assert from_mapping({"allowed_imports": []}).allowed_imports == ()


@pytest.mark.parametrize("data, words", [
    ({"allowed_imports": "numpy"}, "must be a list of package names"),
    ({"allowed_imports": [1]}, "must be a list of package names"),
    ({"allowed_imports": ["numpy.linalg"]}, "is not a top-level package name"),
    ({"allowed_imports": ["torch"]}, "torch both allowed and forbidden"),
    ({"allowed_imports": ["numpy"], "forbidden_imports": ["numpy"]}, "numpy both allowed and forbidden"),
    ({"allowed_imports": ["reference"]}, "never taken from the grader's"),
    ({"allowed_imports": ["math"]}, "the standard library's, always allowed"),
])
def test_an_allowed_list_that_cant_work_is_a_one_line_error(data, words):
    with pytest.raises(ConfigError, match=words) as err:
        from_mapping(data, source="a.toml")
    assert "\n" not in str(err.value) and str(err.value).startswith("a.toml: ")


@pytest.mark.parametrize("key, value", [
    ("case_timeout", 0), ("case_timeout", 0.01), ("import_timeout", 0.01), ("abs_tol", 1e8), ("rel_tol", 2.0),
    ("memory_mb", 16), ("case_timeout", 10**6), ("one_time_work", -1), ("one_time_work", 10**4),
])
def test_is_a_limit_that_cannot_work_a_one_line_error_naming_the_key(key, value):
    """case_timeout = 0 or abs_tol = 1e8 once graded a whole class wrongly (0/100, or everything passing)."""
    with pytest.raises(ConfigError) as err:
        from_mapping({key: value}, source="assignment.toml")
    message = str(err.value)
    assert key in message and "\n" not in message and message.startswith("assignment.toml")


def test_are_sane_limits_accepted():
    rubric = from_mapping({"case_timeout": 1.0, "import_timeout": 2, "abs_tol": 1e-6, "rel_tol": 1e-4, "memory_mb": 512})
    assert rubric.case_timeout == 1.0 and rubric.memory_mb == 512


def test_does_one_time_work_reach_the_runner_and_the_handouts_rubric():
    from autograder.config import rubric_toml
    from autograder.grading import limits_for

    rubric = from_mapping({"one_time_work": 3.0})
    assert limits_for(rubric).one_time_work == 3.0 and Rubric().one_time_work == 0.3
    assert from_mapping(tomllib.loads(rubric_toml(rubric, with_seed=False))).one_time_work == 3.0


def test_is_a_task_left_out_of_points_an_error_not_a_silent_default():
    points = dict(Rubric().points)
    del points["train"]
    with pytest.raises(ConfigError, match=r"\[points\] has no train"):
        from_mapping({"points": points})
    assert from_mapping({"points": {**points, "train": 0}}).points["train"] == 0  # an explicit 0 is fine


def test_does_the_kits_own_rubric_still_load():
    rubric = load_rubric(KIT_ROOT / "assignment.toml")
    assert rubric.max_score == 100


@pytest.mark.parametrize("key, value", [
    ("forbidden_imports", "torch"), ("allowed_imports", "numpy"), ("forbidden_imports", ["torch", 3]),
    ("forbidden_imports", ["torch.nn"]),
])
def test_is_a_list_of_package_names_of_the_wrong_type_refused_in_one_line(key, value):
    """`forbidden_imports = "torch"` would be read letter by letter: refused, saying the form it takes."""
    with pytest.raises(ConfigError) as err:
        from_mapping({key: value}, source="assignment.toml")
    assert str(err.value).startswith(f"assignment.toml: {key}") and "\n" not in str(err.value)


def test_is_an_allowed_package_not_installed_here_refused_in_one_line():
    from autograder.config import require_installed
    from autograder.runner.packages import not_installed

    rubric = from_mapping({"allowed_imports": ["numpy", "notapkg"]}, source="assignment.toml")
    with pytest.raises(ConfigError, match=r"^assignment.toml: allowed_imports names 'notapkg', which is not "
                                          r"installed here: install it in the grader's venv, or take it out"):
        require_installed(rubric, not_installed)
    require_installed(from_mapping({"allowed_imports": ["numpy"]}), not_installed)  # installed: no complaint
