"""Does the students' gradcheck agree with a correct engine and catch a wrong one?"""
from __future__ import annotations

import math

from autograder.gradcheck import gradcheck, numeric_grads
from autograder.engines import package_api
from autograder.paths import KIT_ROOT


def test_does_a_correct_engine_pass_and_print_a_table(capsys):
    Value = package_api(KIT_ROOT / "solutions", "solutions").Value
    assert gradcheck(lambda a, b: (a * b + a ** 2).tanh(), [0.5, -1.5], Value)
    table = capsys.readouterr().out
    assert "your grad" in table and table.count("yes") == 2


def test_does_a_wrong_derivative_show_as_no(capsys):
    Value = package_api(KIT_ROOT / "solutions", "solutions").Value

    class Wrong(Value):
        def tanh(self):  # tanh's derivative taken at the input: 1 - x**2
            out = Value(math.tanh(self.data), (self,), "tanh")

            def _backward():
                self.grad += (1 - self.data ** 2) * out.grad
            out._backward = _backward
            return out

    assert not gradcheck(lambda a: a.tanh(), [0.8], Wrong)
    assert "NO" in capsys.readouterr().out


def test_are_numeric_grads_central_differences():
    Value = package_api(KIT_ROOT / "solutions", "solutions").Value
    g = numeric_grads(lambda x: x ** 3, [2.0], Value)
    assert abs(g[0] - 12.0) < 1e-5


def test_does_the_table_name_each_input_as_f_names_it(capsys):
    """`lambda a, b: ...` labels its rows a and b, not x0 and x1; a function of *args keeps x0, x1."""
    Value = package_api(KIT_ROOT / "solutions", "solutions").Value
    gradcheck(lambda a, b: a * b, [0.5, -1.5], Value)
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == ["a", "b"]
    gradcheck(lambda *xs: xs[0] * xs[1], [0.5, -1.5], Value)
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == ["x0", "x1"]
