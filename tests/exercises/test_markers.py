"""Does the solution-marker stripper turn solution blocks into stubs, and refuse bad markers?"""
from __future__ import annotations

import pytest

from autograder.exercises import MarkerError, strip_solutions, write_exercises

GOOD = """\
def f(x):
    # d f/dx: the spec stays
    # BEGIN SOLUTION add: write the sum
    return x + 1
    # END SOLUTION
"""


def test_a_block_becomes_a_stub_at_the_markers_indentation():
    """Is the block replaced by one raise at the BEGIN marker's indentation, with the task id and message?"""
    assert strip_solutions(GOOD) == (
        "def f(x):\n"
        "    # d f/dx: the spec stays\n"
        "    raise NotImplementedError('add: write the sum')\n"
    )


def test_deeper_indentation_is_kept():
    """Does a block inside a nested function keep its deeper indentation?"""
    text = "class A:\n    def f(self):\n        def g():\n            # BEGIN SOLUTION mul: m\n            pass\n            # END SOLUTION\n"
    assert strip_solutions(text).splitlines()[-1] == "            raise NotImplementedError('mul: m')"


def test_text_outside_blocks_is_unchanged():
    """Is everything outside a block kept byte for byte: blank lines, trailing spaces, a missing final newline?"""
    text = "x = 1  \n\n\t# a comment\r\ny = 'BEGIN SOLUTION in a string'\nz = 3"
    assert strip_solutions(text) == text


def test_a_message_with_quotes_gives_valid_python():
    """Is a message containing quotes written so the stub still compiles and says the same?"""
    text = "def f():\n    # BEGIN SOLUTION relu: it's \"1 or 0\"\n    pass\n    # END SOLUTION\n"
    namespace = {}
    exec(strip_solutions(text), namespace)
    with pytest.raises(NotImplementedError, match="relu: it's \"1 or 0\""):
        namespace["f"]()


def test_nested_begin_is_an_error_naming_both_lines():
    """Is an error raised when BEGIN SOLUTION is nested, naming its line and the open block's line?"""
    text = "# BEGIN SOLUTION add: a\nx = 1\n# BEGIN SOLUTION mul: b\n# END SOLUTION\n# END SOLUTION\n"
    with pytest.raises(MarkerError, match=r"^sol\.py:3: BEGIN SOLUTION nested .* line 1$"):
        strip_solutions(text, "sol.py")


def test_end_without_begin_is_an_error():
    """Is an error raised for an END SOLUTION that closes nothing, naming its line?"""
    with pytest.raises(MarkerError, match=r"^sol\.py:2: END SOLUTION without a BEGIN"):
        strip_solutions("x = 1\n# END SOLUTION\n", "sol.py")


def test_unclosed_begin_is_an_error():
    """Is an error raised for a BEGIN SOLUTION never closed, naming the line it opened at?"""
    with pytest.raises(MarkerError, match=r"^sol\.py:2: BEGIN SOLUTION is never closed"):
        strip_solutions("x = 1\n# BEGIN SOLUTION add: a\ny = 2\n", "sol.py")


def test_unknown_task_id_is_an_error():
    """Is a marker with a task id the kit does not know refused, listing the known ones?"""
    with pytest.raises(MarkerError, match=r"^sol\.py:1: unknown task id 'addition'.*\badd\b"):
        strip_solutions("# BEGIN SOLUTION addition: a\n# END SOLUTION\n", "sol.py")


@pytest.mark.parametrize("marker", ["# BEGIN SOLUTION", "# BEGIN SOLUTION add", "# BEGIN SOLUTION add:", "# BEGIN SOLUTION: a"])
def test_malformed_marker_is_an_error(marker):
    """Is a BEGIN marker without '<task id>: <what to write>' refused with the expected form?"""
    with pytest.raises(MarkerError, match=r"^sol\.py:1: write the marker as"):
        strip_solutions(f"{marker}\n# END SOLUTION\n", "sol.py")


def test_write_exercises_writes_nothing_when_a_marker_is_wrong(tmp_path):
    """When one solution file has a bad marker, is no exercise file written or changed at all?"""
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    (solutions / "pkg").mkdir(parents=True)
    (solutions / "pkg" / "a.py").write_text(GOOD)
    (solutions / "pkg" / "b.py").write_text("# BEGIN SOLUTION add: a\n")  # never closed
    (exercises / "pkg").mkdir(parents=True)
    (exercises / "pkg" / "old.py").write_text("old = True\n")
    with pytest.raises(MarkerError, match="b.py"):
        write_exercises(solutions, exercises)
    assert sorted(p.name for p in exercises.rglob("*")) == ["old.py", "pkg"]
    assert (exercises / "pkg" / "old.py").read_text() == "old = True\n"
