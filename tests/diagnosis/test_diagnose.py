"""When does the diagnosis name a mistake? Only when a model predicts every counted case, or the probes prove it.

Synthetic cases and outcomes: the rules themselves, one by one. (The corpus of real single-bug
engines is tests/corpus/test_diagnosis.py.)
"""
from __future__ import annotations

from autograder.cases.model import Case
from autograder.diagnosis import diagnose
from autograder.goldens.compute import MISTAKES, RAISES
from autograder.report.model import CaseResult
from autograder.runner.protocol import CaseOutcome

TOL = {"rel_tol": 1e-6, "abs_tol": 1e-8}


def _case(n: int, program: str = "ops.graph") -> Case:
    return Case(id=f"mul/c{n}", task="mul", program=program, params={})


def _golden(right: float, **models) -> dict:
    return {"a.grad": right, MISTAKES: {"correct": {"a.grad": right},
                                       **{k: ({RAISES: 1.0} if v is RAISES else {"a.grad": v}) for k, v in models.items()}}}


def _run(cases, values, goldens, counted=None, statuses=None):
    outcomes, results = {}, []
    for i, (case, v) in enumerate(zip(cases, values)):
        status = (statuses or {}).get(i, "ok")
        outcomes[case.id] = CaseOutcome(case.id, status, obs={} if v is None else {"a.grad": v})
        right = goldens[case.id]["a.grad"]
        passed = status == "ok" and v == right
        results.append(CaseResult(case.id, "passed" if passed else ("failed" if status == "ok" else status),
                                  counted=(counted or {}).get(i, True)))
    return [d.id for d in diagnose("mul", cases, results, outcomes, goldens, **TOL)]


def test_is_a_mistake_named_when_its_model_predicts_every_case():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0), cases[1].id: _golden(2.0, overwrites_grad=2.0)}
    assert _run(cases, [3.0, 2.0], goldens) == ["overwrites_grad"]


def test_is_nothing_named_when_one_case_contradicts_the_model():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0), cases[1].id: _golden(2.0, overwrites_grad=2.0)}
    assert _run(cases, [3.0, 5.0], goldens) == []


def test_is_a_task_that_passes_never_diagnosed():
    cases = [_case(0)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=6.0)}  # a model that happens to agree
    assert _run(cases, [6.0], goldens) == []


def test_does_a_case_charged_elsewhere_neither_trigger_nor_block_a_name():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0), cases[1].id: _golden(2.0, overwrites_grad=2.0)}
    assert _run(cases, [6.0, 9.0], goldens, counted={1: False}) == []          # its own cases all pass
    assert _run(cases, [3.0, 9.0], goldens, counted={1: False}) == ["overwrites_grad"]


def test_does_a_timeout_leave_the_task_unnamed():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0), cases[1].id: _golden(2.0, overwrites_grad=2.0)}
    assert _run(cases, [3.0, None], goldens, statuses={1: "timeout"}) == []


def test_is_an_error_explained_only_by_a_model_that_raises():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0, swapped_operands=3.0),
               cases[1].id: _golden(2.0, overwrites_grad=2.0, swapped_operands=RAISES)}
    assert _run(cases, [3.0, None], goldens, statuses={1: "error"}) == ["swapped_operands"]


def test_are_several_fitting_mistakes_listed_in_the_catalogues_order():
    cases = [_case(0)]
    goldens = {cases[0].id: _golden(6.0, swapped_operands=3.0, overwrites_grad=3.0)}
    assert _run(cases, [3.0], goldens) == ["overwrites_grad", "swapped_operands"]


# -- wrong_local_derivative: read off the probes of ops.local ----------------------------------

def _local(n, seen, right, out=2.0, golden_out=2.0):
    case = Case(id=f"mul/l{n}", task="mul", program="ops.local", params={})
    golden = {"out": golden_out, "a.grad": right[0], MISTAKES: {"correct": {"out": golden_out, "probe": right}}}
    obs = {"out": out, "a.grad": seen[0], "probe": seen}
    return case, golden, obs


def _catch_all(*runs):
    cases = [c for c, _, _ in runs]
    goldens = {c.id: g for c, g, _ in runs}
    outcomes = {c.id: CaseOutcome(c.id, "ok", obs=o) for c, _, o in runs}
    results = [CaseResult(c.id, "failed") for c in cases]
    return [d.id for d in diagnose("mul", cases, results, outcomes, goldens, **TOL)]


# probes: (d, 2d, 1 + d) per input; here one input
def test_is_a_wrong_derivative_named_when_the_closure_scales_and_adds_right():
    assert _catch_all(_local(0, [5.0, 10.0, 6.0], [3.0, 6.0, 4.0])) == ["wrong_local_derivative"]


def test_is_a_closure_that_does_not_scale_with_out_grad_not_called_a_wrong_derivative():
    assert _catch_all(_local(0, [5.0, 5.0, 6.0], [3.0, 6.0, 4.0])) == []


def test_is_a_closure_that_overwrites_not_called_a_wrong_derivative():
    assert _catch_all(_local(0, [5.0, 10.0, 5.0], [3.0, 6.0, 4.0])) == []


def test_is_a_wrong_forward_value_not_blamed_on_the_derivative():
    assert _catch_all(_local(0, [5.0, 10.0, 6.0], [3.0, 6.0, 4.0], out=7.0)) == []


def test_is_nothing_named_without_probes():
    case, golden, obs = _local(0, [5.0, 10.0, 6.0], [3.0, 6.0, 4.0])
    assert _catch_all((case, golden, {k: v for k, v in obs.items() if k != "probe"})) == []


def test_does_a_model_still_fit_when_the_closure_could_not_be_probed():
    case, golden, obs = _local(0, [5.0, 10.0, 6.0], [3.0, 6.0, 4.0])
    golden[MISTAKES]["overwrites_grad"] = {"out": 2.0, "a.grad": 5.0, "probe": [1.0, 2.0, 1.0]}
    obs = {k: v for k, v in obs.items() if k != "probe"}
    assert _catch_all((case, golden, obs)) == ["overwrites_grad"]
    assert _catch_all((case, golden, {**obs, "probe": [5.0, 10.0, 6.0]})) == ["wrong_local_derivative"]


def test_is_an_operation_built_from_other_operations_never_named():
    """tanh from exp: a wrong exp makes tanh's derivative wrong; the mistake is exp's, named there."""
    case, golden, obs = _local(0, [5.0, 10.0, 6.0], [3.0, 6.0, 4.0])
    assert _catch_all((case, golden, {**obs, "composite": 1.0})) == []


def _walk(n, grads, calls, **models):
    case = Case(id=f"backward/w{n}", task="backward", program="backward.graph", params={})
    golden = {"leaf_grads": [4.0, 2.5], MISTAKES: {"correct": {"leaf_grads": [4.0, 2.5], "closure_calls": [3.0, 2.0]},
                                                   **{k: {"leaf_grads": g, "closure_calls": c}
                                                      for k, (g, c) in models.items()}}}
    return case, golden, {"leaf_grads": grads, "closure_calls": calls}


def _named(*runs):
    cases = [c for c, _, _ in runs]
    results = [CaseResult(c.id, "failed") for c in cases]
    return [d.id for d in diagnose("backward", cases, results, {c.id: CaseOutcome(c.id, "ok", obs=o) for c, _, o in runs},
                                   {c.id: g for c, g, _ in runs}, **TOL)]


def test_does_the_call_order_decide_only_between_walks_whose_grads_agree():
    both = {"topo_not_reversed": ([0.0, 0.0], [0.0, 1.0]), "backward_only_root": ([0.0, 0.0], [1.0])}
    assert _named(_walk(0, [0.0, 0.0], [1.0], **both)) == ["backward_only_root"]
    assert _named(_walk(0, [0.0, 0.0], [1.0, 0.0], **both)) == []          # a third order: no name
    one = {"grad_not_seeded": ([0.0, 0.0], [1.0, 0.0])}
    assert _named(_walk(0, [0.0, 0.0], [0.0, 1.0], **one)) == ["grad_not_seeded"]  # another DFS's order


# -- issue 18: a name only on evidence specific to it -------------------------------------------

def test_is_a_closure_that_changes_no_grad_not_called_a_wrong_derivative():
    """Probes of 0, 0 and 1 (a closure attached to the inputs, or skipped by a gate) pass the
    scales-and-adds test trivially: they say nothing about a derivative."""
    assert _catch_all(_local(0, [0.0, 0.0, 1.0], [3.0, 6.0, 4.0])) == []


def test_is_a_derivative_of_0_where_it_is_not_named_once_the_closure_scales_elsewhere():
    """int(k) * a**(int(k) - 1): 0 for k = 0.5, right for k = 3; the closure scales and adds, so the 0 is its
    derivative, not a closure that does nothing."""
    assert _catch_all(_local(0, [0.0, 0.0, 1.0], [3.0, 6.0, 4.0]),
                      _local(1, [12.0, 24.0, 13.0], [12.0, 24.0, 13.0])) == ["wrong_local_derivative"]


def test_is_a_wrong_derivative_still_named_where_one_input_shows_it():
    two = _local(0, [5.0, 0.0, 10.0, 0.0, 6.0, 1.0], [3.0, 2.0, 6.0, 4.0, 4.0, 3.0])
    assert _catch_all(two) == ["wrong_local_derivative"]


def test_is_an_error_explained_only_by_a_model_raising_the_same_kind_of_error():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0, swapped_operands=3.0),
               cases[1].id: _golden(2.0, overwrites_grad=2.0, swapped_operands=RAISES)}
    goldens[cases[1].id][MISTAKES]["swapped_operands"]["raises.AttributeError"] = 1.0

    def run(message):
        outcomes = {cases[0].id: CaseOutcome(cases[0].id, "ok", obs={"a.grad": 3.0}),
                    cases[1].id: CaseOutcome(cases[1].id, "error", message=message)}
        results = [CaseResult(c.id, "failed" if i == 0 else "error") for i, c in enumerate(cases)]
        return [d.id for d in diagnose("mul", cases, results, outcomes, goldens, **TOL)]
    assert run("AttributeError: 'int' object has no attribute 'data'") == ["swapped_operands"]
    assert run("TypeError: unsupported operand type(s) for +: 'int' and 'Value'") == []
    assert run("ApiMismatch: your Value's _prev can't be set to a node's children") == []


def test_is_an_engine_off_the_exercise_api_never_given_an_algorithms_name():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, overwrites_grad=3.0), cases[1].id: _golden(2.0, overwrites_grad=2.0)}
    outcomes = {c.id: CaseOutcome(c.id, "ok", obs={"a.grad": v, "deviation": 1.0}) for c, v in zip(cases, [3.0, 2.0])}
    results = [CaseResult(cases[0].id, "failed"), CaseResult(cases[1].id, "passed")]
    assert [d.id for d in diagnose("mul", cases, results, outcomes, goldens, **TOL)] == []


def test_does_a_model_of_two_mistakes_name_both():
    cases = [_case(0), _case(1)]
    goldens = {cases[0].id: _golden(6.0, **{"overwrites_grad+number_not_wrapped": 3.0, "overwrites_grad": 3.0}),
               cases[1].id: _golden(2.0, **{"overwrites_grad+number_not_wrapped": RAISES, "overwrites_grad": 2.0})}
    assert _run(cases, [3.0, None], goldens, statuses={1: "error"}) == ["overwrites_grad", "number_not_wrapped"]


def test_is_what_every_fitting_walk_does_wrong_named_when_the_call_order_tells_none_apart():
    """No seed leaves every grad 0 whatever the order: a walk leaves-first or not, grad_not_seeded holds."""
    fits = {"grad_not_seeded": ([0.0, 0.0], [0.0, 1.0]),
            "grad_not_seeded+topo_not_reversed": ([0.0, 0.0], [1.0, 0.0])}
    assert _named(_walk(0, [0.0, 0.0], [1.0, 0.0], **fits)) == ["topo_not_reversed", "grad_not_seeded"]
    assert _named(_walk(0, [0.0, 0.0], [0.0, 1.0], **fits)) == ["grad_not_seeded"]
    assert _named(_walk(0, [0.0, 0.0], [2.0, 1.0, 0.0], **fits)) == ["grad_not_seeded"]  # another DFS's order


def test_is_an_error_explained_only_by_a_model_raising_it_in_the_same_place():
    """An error in the student's engine (where: a line of theirs) is not `3 + a` failing in the case's own
    code, where Python finds no __radd__, even when both are TypeErrors."""
    cases = [_case(0)]
    goldens = {cases[0].id: _golden(2.0, reflected_op_missing=RAISES)}
    goldens[cases[0].id][MISTAKES]["reflected_op_missing"].update({"raises.TypeError": 1.0, "raises.at.case": 1.0})

    def run(where):
        outcomes = {cases[0].id: CaseOutcome(cases[0].id, "error", message="TypeError: no", where=where)}
        return [d.id for d in diagnose("mul", cases, [CaseResult(cases[0].id, "error")], outcomes, goldens, **TOL)]
    assert run("") == ["reflected_op_missing"]
    assert run("engine.py:12") == []
