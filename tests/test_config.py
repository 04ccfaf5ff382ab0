"""Does the rubric read allowed_imports, and refuse lists that can't work?"""
from __future__ import annotations

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
