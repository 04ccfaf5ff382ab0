"""Does a failing extra operation get what every operation's failure gets: a picture, its first wrong step, and
the classic mistake named (with the student's own constant in the derivative it states) where the evidence
singles one out?

Each pool operation's solution, with one mistake planted in its `_backward`, is checked as `autograder check`
checks it (the sandboxed child, the public cases).
"""
from __future__ import annotations

import pytest

from autograder.cases.common import fmt
from autograder.config import from_mapping
from autograder.exercises.variant_source import copy_solution
from autograder.goldens import GoldenStore
from autograder.grading import grade_path
from autograder.report.graph_svg import source
from autograder.tasks import VARIANT_OPS
from autograder.variants.assign import with_variant
from autograder.variants.model import Variant

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})

# each operation's local derivative as a student might get it wrong: (the right code, the wrong code)
WRONG_DERIVATIVE = {
    "sigmoid": ("c * s * (1 - s)", "s * (1 - s)"),                                # the inner derivative c forgotten
    "softplus": ("math.exp(-beta * self.data)", "math.exp(-self.data)"),          # beta left out
    "log": ("1 / (self.data * math.log(base))", "1 / self.data"),                 # the natural log's
    "sin": ("w * math.cos(w * self.data)", "math.cos(w * self.data)"),            # the inner derivative w forgotten
    "leaky_relu": ("(1 if self.data > 0 else slope)", "(1 if self.data > 0 else 0)"),  # relu's
    "power": ("k * self.data ** (k - 1)", "k * self.data ** k"),                  # the exponent not lowered
}
# the mistake named <- (the right code, the wrong code) planted in the operation's method. A closure attached to the
# operand is named as one that does nothing: no case of an extra operation tells the two apart, and the fix of
# both is `out._backward = _backward`
PLANTED = {
    "overwrites_grad": ("self.grad += ", "self.grad = "),
    "missing_upstream_grad": (" * out.grad", ""),
    "closure_does_nothing": ("out._backward = _backward", "self._backward = _backward"),
}


def _variant(op: str) -> Variant:
    lo, hi = VARIANT_OPS[op].between
    return Variant(student=f"{op}-student", op=op, constant=round(lo + 0.37 * (hi - lo), 4), activation="tanh")


def _checked(tmp_path, op: str, right: str, wrong: str):
    """The public report of the variant's solution with `right` replaced by `wrong` in its extra operation."""
    variant = _variant(op)
    folder = copy_solution(tmp_path / "sub", variant)
    engine = folder / "micrograd" / "engine.py"
    text = engine.read_text(encoding="utf-8")
    start = text.index(f"    def {op}(self):")
    end = text.index("    def backward(self):")
    lines = text[start:end].splitlines(keepends=True)
    code = next(i for i, line in enumerate(lines) if right in line and not line.lstrip().startswith("#"))
    lines[code] = lines[code].replace(right, wrong, 1)
    engine.write_text(text[:start] + "".join(lines) + text[end:], encoding="utf-8")
    report = grade_path(folder, rubric=with_variant(COURSE, variant), include_hidden=False, tasks=[op],
                        store=GoldenStore(tmp_path / "cache"))
    return variant, next(t for t in report.tasks if t.id == op)


@pytest.mark.parametrize("op", list(VARIANT_OPS))
def test_is_a_wrong_local_derivative_named_with_the_students_constant(op, tmp_path):
    """The chain rule right, the derivative wrong: named, the right derivative stated with this student's constant;
    the failing case drawn, its first wrong step at the operation's node."""
    variant, task = _checked(tmp_path, op, *WRONG_DERIVATIVE[op])
    assert task.status != "passed"
    assert [d.id for d in task.diagnosis] == ["wrong_local_derivative"], task.diagnosis
    assert f"{fmt(variant.constant)}" in task.diagnosis[0].message
    failed = [c for c in task.cases if c.status == "failed" and c.visibility == "public"]
    drawn = [c for c in failed if c.graph is not None]
    assert drawn, [c.id for c in failed]
    local = next(c for c in drawn if c.id == f"{op}/hand-local")
    assert local.graph.origin == "out" and local.graph.step.startswith("the first wrong step is at out = ")
    assert "digraph" in source(local.graph)


@pytest.mark.parametrize("mistake", list(PLANTED))
@pytest.mark.parametrize("op", list(VARIANT_OPS))
def test_is_each_planted_closure_mistake_named(op, mistake, tmp_path):
    """`=` for `+=`, no `* out.grad`, the closure on the operand: each named as in any operation's task (the last
    as a closure that changes no grad), and never a name the evidence does not single out."""
    _, task = _checked(tmp_path, op, *PLANTED[mistake])
    assert task.status != "passed"
    assert [d.id for d in task.diagnosis] == [mistake], task.diagnosis
    assert f"{op}'s _backward" in task.diagnosis[0].message


def test_is_a_powers_node_drawn_with_the_students_exponent():
    """The picture writes the node as the student's engine.py names it, **k with their k, and its first wrong step
    as out = a**k; drawn from the case's own numbers, no child needed."""
    from autograder.cases import PUBLIC_SEED, build_cases
    from autograder.cases.case_graph import case_graph

    variant = Variant(student="p", op="power", constant=3.2715)
    case = next(c for c in build_cases(seed=PUBLIC_SEED, visibility="public", variant=variant)
                if c.id == "power/hand-local")
    right = 3.2715 * 2.0 ** 2.2715 * 2.0
    graph = case_graph(case, {"out": 2.0 ** 3.2715, "a.grad": right / 3.2715},
                       {"out": 2.0 ** 3.2715, "a.grad": right}, lambda x, y: abs(x - y) <= 1e-9 * max(1, abs(y)))
    assert graph.nodes[-1].op == "**3.2715" and graph.origin == "out"
    assert graph.step.startswith("the first wrong step is at out = a**3.2715: with out.grad = 2, a.grad should be ")
