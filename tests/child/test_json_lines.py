"""The child's JSON (observe.dumps / loads, on the C accelerator `_json`): what the json package writes and reads.

The child does without `import json` to start faster; the parent still parses every
line with json.loads. So dumps must write exactly what json.dumps writes, for
whatever a result line can hold, and never let a student's subclass speak for itself.
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from autograder.child import observe
from autograder.runner.sandbox import CHILD_MAIN

VALUES = [
    None, True, False, 0, -7, 10 ** 30, 0.0, -0.0, 1.5, 1e-320, 1.7976931348623157e308, 0.1 + 0.2,
    float("nan"), float("inf"), float("-inf"), "", "plain", "quote \" backslash \\ slash /",
    "\x00\x01\x1f\x7f tab\t newline\n cr\r", "é ü 李雷 😀", "\ud800 lone \udfff surrogates",
    [], [1.0, [2.0, [3.0, []]]], (1, 2.5), {}, {"a": None, "b": [1.0, {"type": "str", "repr": "'x'"}]},
    {"case": "add/one", "nonce": "ab" * 16, "status": "ok", "obs": {"out": -1.0, "grads": [0.5, 0.5]},
     "output": "printed\n"},
    {"import": {"engine": None, "nn": "nn.py:3: SyntaxError: invalid syntax", "train": None},
     "missing_files": ["train"], "nonce": "00" * 16},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_dumps_writes_what_json_dumps_writes(value):
    assert observe.dumps(value) == json.dumps(value)


def test_dumps_agrees_on_random_floats_and_nesting():
    rng = random.Random(5)
    for _ in range(2000):
        x = rng.choice([rng.uniform(-1e6, 1e6), rng.gauss(0, 1e-8), math.ldexp(rng.random(), rng.randint(-1070, 1020))])
        value = {"x": x, "xs": [x, -x, [x * 3]], "s": chr(rng.randint(0, 0x10FFFF))}
        assert observe.dumps(value) == json.dumps(value)


def test_a_students_subclass_does_not_speak_for_itself():
    class LyingStr(str):
        def __str__(self):
            return "lie"

        def __repr__(self):
            return "lie"

    class LyingFloat(float):
        def __repr__(self):
            return "1e999"

        def __ne__(self, other):
            return True

    class LyingList(list):
        def __iter__(self):
            return iter(["lie"])

    class LyingDict(dict):
        def items(self):
            return [("lie", "lie")]

    class Impostor:
        @property
        def __class__(self):
            return str

    value = {"s": LyingStr("truth"), "f": LyingFloat(2.5), "l": LyingList([1.0]), "d": LyingDict(k=1.0)}
    assert json.loads(observe.dumps(value)) == {"s": "truth", "f": 2.5, "l": [1.0], "d": {"k": 1.0}}
    with pytest.raises(TypeError):
        observe.dumps({"x": Impostor()})
    with pytest.raises(TypeError):
        observe.dumps({1: 1.0})


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_loads_reads_what_json_loads_reads(value):
    text = json.dumps(value)
    for data in (text, text.encode(), f" \t{text}\r\n"):
        assert repr(observe.loads(data)) == repr(json.loads(data))


@pytest.mark.parametrize("bad", ["", "   ", "not json", "[1, 2", '{"a": 1} extra', "{'a': 1}", "[1,]", "\x00",
                                 b"\xff\xfe", "NaNa"])
def test_loads_refuses_what_json_loads_refuses(bad):
    with pytest.raises(ValueError):
        json.loads(bad)
    with pytest.raises(ValueError):
        observe.loads(bad)


def test_the_child_does_not_import_json_or_the_other_slow_modules():
    code = (f"import sys; sys.argv = [{str(CHILD_MAIN)!r}]; sys.path.insert(0, {str(CHILD_MAIN.parent)!r}); "
            "import main; print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert {"main", "_autograder_child.observe", "_autograder_child.student"} <= loaded
    slow = {"json", "re", "importlib.util", "importlib.abc", "traceback", "typing", "pathlib", "tempfile",
            "enum", "collections", "functools", "contextlib"}
    assert not loaded & slow, f"the child imports {sorted(loaded & slow)} at start-up"


def test_does_the_child_leave_every_top_level_name_to_the_students_files():
    """Its own modules are a package of a private name: a student's own student.py, programs/ or main.py is theirs."""
    code = (f"import sys; sys.argv = [{str(CHILD_MAIN)!r}]; sys.path.insert(0, {str(CHILD_MAIN.parent)!r}); "
            "import main; sys.path.pop(0); del sys.modules['main']; "
            "import _autograder_child.programs.ops; print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    kit = {"student", "observe", "hooks", "adapt", "cells", "programs", "names", "api", "stubs", "kernel"}
    assert not loaded & kit, sorted(loaded & kit)
