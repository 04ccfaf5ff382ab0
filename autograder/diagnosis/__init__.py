"""Name the classic mistake behind a failing task (issue 13).

`diagnose` reads what the student's code observed (the child's outcomes) and what each
classic mistake would have observed (the golden's predictions, computed on the reference's
mistaken engines in the trusted process, reference/mistakes/). A mistake is named when one of
its models predicts every counted case of the task: each number, each error. A case that timed
out or is missing leaves the task unnamed, and so does an operation built from other operations
(tanh from exp: whatever is wrong lies in those, and is named in their tasks). A task that
passes is never diagnosed, a score is never changed, and no student code runs here.
"""
from __future__ import annotations

from autograder.cases.model import Case
from autograder.child.programs import DIAGNOSTIC
from autograder.diagnosis import local_derivative
from autograder.diagnosis.catalogue import IDS, message
from autograder.goldens.compute import MISTAKES, RAISES
from autograder.report.model import CaseResult, Diagnosis
from autograder.runner.protocol import CaseOutcome
from autograder.scoring.compare import closeness, compare
from autograder.tasks import EVERY_OP

CATCH_ALL = "wrong_local_derivative"
# the order of backward()'s closure calls depends on the student's own DFS (recursive or a stack,
# children in _prev's order or reversed): it decides between mistakes whose grads agree, and is not
# held against the one mistake the grads single out
ORDER = frozenset({"closure_calls"})


def diagnose(task: str, cases: list[Case], results: list[CaseResult], outcomes: dict[str, CaseOutcome],
             goldens: dict[str, dict], *, rel_tol: float, abs_tol: float) -> tuple[Diagnosis, ...]:
    """The mistakes that explain every counted case of `task` (its cases and their results, in order)."""
    counted = [(case, outcomes.get(case.id)) for case, result in zip(cases, results) if result.counted]
    if not any(r.counted and r.status != "passed" for r in results):
        return ()
    if not counted or any(o is None or o.status not in ("ok", "error") for _, o in counted):
        return ()
    if any(o.obs.get("composite") == 1.0 for _, o in counted):
        return ()  # an op built from other ops: its mistake is in those ops' closures, named there
    if any(o.obs.get("deviation") == 1.0 for _, o in counted):
        return ()  # an engine off the exercise API (the report's notes say where): no algorithm's name fits it
    predictions = [goldens[case.id].get(MISTAKES) or {} for case, _ in counted]
    keys = {key for p in predictions for key in p}

    def fitting(ignore: frozenset) -> list[str]:
        """The keys of the models that explain every counted case."""
        return [key for key in keys if _explains(counted, predictions, key, rel_tol, abs_tol, ignore)]

    def ids(found: list[str], every: bool = False) -> list[str]:
        """The mistakes the keys name (every: only those all of them name), in the catalogue's order."""
        sets = [set(_ids(key)) for key in found]
        return [m for m in IDS if sets and (all(m in s for s in sets) if every else any(m in s for s in sets))]
    by_grads = fitting(ORDER)
    named = ids(by_grads)
    if len(named) > 1:
        # the grads fit several walks of the graph: the order of the closures' calls tells them apart; where
        # it tells none, what every one of those walks does wrong is still true (no seed, whatever the order)
        named = ids(fitting(frozenset())) or ids(by_grads, every=True)
    if not named and all(o.status == "ok" for _, o in counted):
        close = closeness(rel_tol=rel_tol, abs_tol=abs_tol)
        runs = [(case.program, o.obs, goldens[case.id], p.get("correct", {}))
                for (case, o), p in zip(counted, predictions)]
        if task in EVERY_OP and local_derivative.fits(runs, close):
            named = [CATCH_ALL]
    constant = next((c.params["constant"] for c in cases if "constant" in c.params), None)  # a variant's op's
    return tuple(Diagnosis(m, message(task, m, constant)) for m in named)


def _ids(key: str) -> list[str]:
    """The mistakes a model's key names: "overwrites_grad+number_not_wrapped.v" -> both ids."""
    return key.partition(".")[0].split("+")


def _kind(message: str) -> str:
    """The exception's type in a case's error message ("TypeError: ..." -> "TypeError"), or ""."""
    kind = message.partition(":")[0]
    return kind if kind.isidentifier() else ""


def _explains(counted, predictions, key, rel_tol, abs_tol, ignore: frozenset = frozenset()) -> bool:
    for (case, outcome), prediction in zip(counted, predictions):
        predicted = prediction.get(key)
        if predicted is None:
            return False
        if RAISES in predicted:
            # an error is explained only by the model's own kind of error (an unwrapped number's
            # AttributeError is not a missing __radd__'s TypeError, nor the kit's word on an API deviation)
            kinds = {k.partition(".")[2] for k in predicted
                     if k.startswith(RAISES + ".") and not k.startswith(RAISES + ".at.")}
            if outcome.status != "error" or (kinds and _kind(outcome.message) not in kinds):
                return False
            # and where: in the student's code (the engine) or in the case's own (`3 + a` finding no __radd__)
            if (f"{RAISES}.at.engine" in predicted and not outcome.where) or \
                    (f"{RAISES}.at.case" in predicted and outcome.where):
                return False
            continue
        if outcome.status != "ok":
            return False
        # a closure the kit could not call again, or wrap: no probes, no call order to match
        predicted = {k: v for k, v in predicted.items()
                     if k not in ignore and (k not in DIAGNOSTIC or k in outcome.obs)}
        if compare(outcome.obs, predicted, rel_tol=rel_tol, abs_tol=abs_tol):
            return False
    return True
