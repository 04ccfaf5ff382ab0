"""Does the child say where each task's code is, off what Python compiled, and never run the student's code for it?"""
from __future__ import annotations

import types

from autograder.child import places
from autograder.runner.protocol import parse_import


def _engine():
    source = (
        "class Meta(type):\n"
        "    def __getattr__(cls, name):\n"
        "        raise RuntimeError('a metaclass asked')\n"
        "class Value(metaclass=Meta):\n"
        "    def __mul__(self, other):\n"
        "        out = Value()\n"
        "        def _backward():\n"
        "            self.grad = other.data * out.grad\n"
        "        out._backward = _backward\n"
        "        return out\n"
        "    def backward(self):\n"
        "        pass\n"
        "    tanh = print\n"
    )
    module = {}
    exec(compile(source, "/sub/micrograd/engine.py", "exec"), module)
    return types.SimpleNamespace(Value=module["Value"])


def test_is_the_closure_found_inside_its_method_and_a_method_by_its_own_line():
    """mul: the line of `def _backward` inside __mul__; backward: its def; a builtin or a missing piece: nothing."""
    api = _engine()
    found = places.places(api, ["mul", "backward", "tanh", "neuron"],
                          lambda path: "micrograd/engine.py" if path == "/sub/micrograd/engine.py" else "")
    assert found == {"mul": "micrograd/engine.py:7", "backward": "micrograd/engine.py:11"}


def test_is_a_file_not_the_students_never_named():
    assert places.places(_engine(), ["mul"], lambda path: "") == {}


def test_does_a_syntax_error_give_its_line_and_caret_column():
    try:
        compile("x = (1 +\n", "engine.py", "exec")
    except SyntaxError as exc:
        line, column = places.syntax_line(exc)
    assert line == "x = (1 +" and column == 5
    assert places.syntax_line(ValueError("no")) is None


def test_does_the_parent_keep_only_well_formed_places_and_lines():
    """A child's header with places and syntax lines: kept when well formed, anything else dropped, never raised on."""
    raw = {"import": {}, "nonce": "n", "places": {"mul": "engine.py:47", "add": "no line", "pow": 3, 4: "x:1"},
           "syntax": {"engine": ["  x = (1 +", 7], "nn": ["y", True], "train": "z"}}
    parsed = parse_import(raw, "n")
    assert parsed.places == (("mul", "engine.py:47"),)
    assert parsed.syntax == (("engine", "  x = (1 +", 7),)
    hostile = parse_import({"import": {}, "nonce": "n", "places": ["x"], "syntax": 5}, "n")
    assert hostile.places == () and hostile.syntax == ()
