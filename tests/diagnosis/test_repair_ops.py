"""Does each repair of an operation edit a student's own closure the way its mistake implies, keeping their
names and comments (`def __mul__(me, rhs)`, a closure called `grad_fn`, a node called `res`)?"""
from __future__ import annotations

import pytest

from autograder.diagnosis.repair import ops, ops_wiring
from repairing import lines, repair

MUL = '''
import math

class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data, self.grad, self._prev, self._op = data, 0.0, set(_children), _op
        self._backward = lambda: None

    def __mul__(me, rhs):
        rhs = rhs if isinstance(rhs, Value) else Value(rhs)
        res = Value(me.data * rhs.data, (me, rhs), '*')
        def grad_fn():
            # product rule (my notes)
            {body}
        res._backward = grad_fn
        return res

    def __rmul__(me, rhs):
        return me * rhs
'''


def mul(body: str) -> str:
    return MUL.replace("{body}", body.replace("\n", "\n            "))


def unary(name: str, forward: str, body: str, param: str = "") -> str:
    extra = f", {param}" if param else ""
    return f'''
import math

class Value:
    def {name}(me{extra}):
        t = {forward}
        res = Value(t, (me,), '{name}')
        def grad_fn():
            # my own derivation
            {body}
        res._backward = grad_fn
        return res
'''


CASES = [
    # (repair, task, source, the lines it must write)
    (ops.UseAddAssign, "mul", mul("me.grad = rhs.data * res.grad\nrhs.grad = me.data * res.grad"),
     ["me.grad += rhs.data * res.grad", "rhs.grad += me.data * res.grad"]),
    (ops.MultiplyByUpstream, "mul", mul("me.grad += rhs.data\nrhs.grad += me.data"),
     ["me.grad += rhs.data * res.grad", "rhs.grad += me.data * res.grad"]),
    (ops.AddOtherOperandsGrad, "mul", mul("rhs.grad += me.data * res.grad"),
     ["rhs.grad += me.data * res.grad", "me.grad += rhs.data * res.grad"]),
    (ops.UseOtherOperandsData, "mul", mul("me.grad += me.data * res.grad\nrhs.grad += rhs.data * res.grad"),
     ["me.grad += rhs.data * res.grad", "rhs.grad += me.data * res.grad"]),
    (ops.DataForGrad, "mul", mul("me.grad += rhs.grad * res.grad\nrhs.grad += me.grad * res.grad"),
     ["me.grad += rhs.data * res.grad", "rhs.grad += me.data * res.grad"]),
    (ops.DerivativeAtOutput, "tanh", unary("tanh", "math.tanh(me.data)", "me.grad += (1 - me.data**2) * res.grad"),
     ["me.grad += (1 - res.data**2) * res.grad"]),
    (ops.Parenthesize, "tanh", unary("tanh", "math.tanh(me.data)", "me.grad += 1 - t**2 * res.grad"),
     ["me.grad += (1 - t**2) * res.grad"]),
    (ops.Parenthesize, "pow", unary("__pow__", "me.data**k", "me.grad += k * me.data**k-1 * res.grad", "k"),
     ["me.grad += k * me.data**(k - 1) * res.grad"]),
    (ops.StrictAtZero, "relu", unary("relu", "max(me.data, 0)", "me.grad += (me.data >= 0) * res.grad"),
     ["me.grad += (me.data > 0) * res.grad"]),
    (ops.RightLocalDerivative, "pow", unary("__pow__", "me.data**k", "me.grad += k * me.data**k * res.grad", "k"),
     ["me.grad += k * me.data**(k - 1) * res.grad"]),
    (ops_wiring.AttachClosure, "mul", mul("me.grad += rhs.data * res.grad").replace("        res._backward = grad_fn\n", ""),
     ["res._backward = grad_fn"]),
    (ops_wiring.AttachToOutput, "mul", mul("me.grad += rhs.data * res.grad").replace("res._backward =", "me._backward ="),
     ["res._backward = grad_fn"]),
    (ops_wiring.WrapNumber, "mul",
     mul("me.grad += rhs.data * res.grad").replace("        rhs = rhs if isinstance(rhs, Value) else Value(rhs)\n", ""),
     ["rhs = rhs if isinstance(rhs, Value) else Value(rhs)"]),
    (ops_wiring.AddReflectedMethod, "mul", mul("me.grad += rhs.data * res.grad").split("    def __rmul__")[0],
     ["def __rmul__(me, rhs):", "return me * rhs"]),
]


def _mistake(repair_class) -> str:
    return next(m for table in (ops.REPAIRS, ops_wiring.REPAIRS) for m, found in table.items() if repair_class in found)


@pytest.mark.parametrize("repair_class, task, source, written", CASES, ids=lambda x: getattr(x, "__name__", ""))
def test_does_the_repair_write_the_fix_in_the_students_own_names_and_keep_their_comments(
        tmp_path, repair_class, task, source, written):
    texts, edits = repair(tmp_path, task, _mistake(repair_class), {"engine.py": source})
    assert edits, "the repair found no spot"
    after = lines(texts["engine.py"])
    assert all(line in after for line in written), texts["engine.py"]
    kept = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
    assert kept and all(line in after for line in kept)


def test_is_every_repair_of_an_operation_tested_here():
    tested = {c[0] for c in CASES}
    assert {r for table in (ops.REPAIRS, ops_wiring.REPAIRS) for found in table.values() for r in found} <= tested


def test_does_a_repair_reach_an_operation_bound_from_another_file(tmp_path):
    """Classes split across files: `Value.__mul__ = multiply`, the op a function of a module of its own."""
    texts, edits = repair(tmp_path, "mul", "overwrites_grad", {
        "engine.py": "from micrograd.ops.product import multiply\n\nclass Value:\n    pass\n\nValue.__mul__ = multiply\n",
        "ops/product.py": '''
            def multiply(me, rhs):
                res = Value(me.data * rhs.data, (me, rhs), '*')
                def grad_fn():
                    me.grad = rhs.data * res.grad
                res._backward = grad_fn
                return res
            '''})
    assert [e.file for e in edits] == ["ops/product.py"]
    assert "me.grad += rhs.data * res.grad" in lines(texts["ops/product.py"])


def test_does_a_repair_edit_every_closure_an_operation_defines(tmp_path):
    """Several closures per op (one for a Value operand, one for a number): each is repaired."""
    source = mul("pass").replace('''        def grad_fn():
            # product rule (my notes)
            pass
        res._backward = grad_fn''', '''        if isinstance(rhs, Value):
            def grad_fn():
                me.grad = rhs.data * res.grad
                rhs.grad = me.data * res.grad
        else:
            def grad_fn():
                me.grad = rhs * res.grad
        res._backward = grad_fn''')
    texts, edits = repair(tmp_path, "mul", "overwrites_grad", {"engine.py": source})
    after = lines(texts["engine.py"])
    assert {"me.grad += rhs.data * res.grad", "rhs.grad += me.data * res.grad", "me.grad += rhs * res.grad"} <= set(after)


def test_does_a_repair_find_no_spot_where_the_code_has_none(tmp_path):
    """No `=` on a grad to make `+=`: nothing edited, so nothing can be proven."""
    texts, edits = repair(tmp_path, "mul", "overwrites_grad", {"engine.py": mul("me.grad += rhs.data * res.grad")})
    assert not edits and not texts
