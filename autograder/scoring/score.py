"""Turn a run's outcomes and the goldens into a Report, by the rubric.

Partial credit in a task follows the share of its cases that passed.
"""
from __future__ import annotations

from dataclasses import replace

from autograder import __version__
from autograder.cases.case_graph import case_graph
from autograder.cases.model import Case
from autograder.config import Rubric
from autograder.report.model import CaseResult, Report, TaskResult
from autograder.runner.protocol import CaseOutcome
from autograder.scoring.compare import closeness, compare
from autograder.scoring.hinting import hinted
from autograder.scoring.printed import shown
from autograder.tasks import MODULE, TITLE


def score_run(
    submission: str,
    cases: list[Case],
    outcomes: dict[str, CaseOutcome],
    goldens: dict[str, dict],
    rubric: Rubric,
    *,
    sandbox: str = "basic",
    notes: tuple[str, ...] = (),
    duration: float = 0.0,
    import_output: str = "",
    import_errors: tuple[tuple[str, str], ...] = (),
    only: list[str] | None = None,
) -> Report:
    """import_output: what the submission printed while imported, for a report whose import failed.
    import_errors: the student modules that did not import, with why; a case of their tasks that could not
    run says why once, without a derivation that has nothing to do with it.
    only: the tasks to report (others' cases were run only to judge whether those tasks' end-to-end
    cases count); None: every task with cases."""
    by_task: dict[str, list[CaseResult]] = {}
    broken_modules = {module for module, _ in import_errors}
    for case in cases:
        outcome = outcomes.get(case.id) or CaseOutcome(case.id, "error", message="the case was never run")
        explain = MODULE[case.task] not in broken_modules
        by_task.setdefault(case.task, []).append(_case_result(case, outcome, goldens[case.id], rubric, explain))
    by_task = _charge_elsewhere(cases, by_task)
    tasks = tuple(
        _task_result(task, by_task[task], rubric)
        for task in rubric.points if task in by_task and (only is None or task in only)
    )
    tasks = tuple(_diagnosed(t, cases, outcomes, goldens, rubric) for t in tasks)
    close = closeness(rel_tol=rubric.rel_tol, abs_tol=rubric.abs_tol)

    def explained(case: Case, outcome: CaseOutcome) -> bool:  # as _case_result judged it
        return outcome.status == "ok" or bool(outcome.where) or MODULE[case.task] not in broken_modules
    tasks = tuple(hinted(t, cases, outcomes, goldens, close, explained) for t in tasks)
    return Report(
        submission=submission,
        score=round(sum(t.score for t in tasks), 6),
        max_score=round(sum(t.max_score for t in tasks), 6),
        tasks=tasks,
        sandbox=sandbox,
        notes=notes,
        kit_version=__version__,
        duration=duration,
        import_output=shown(import_output),
        import_errors=import_errors,
        variant=graded_variant(rubric),
    )


def crashed_report(submission: str, reason: str, rubric: Rubric, tasks: list[str] | None = None, **kw) -> Report:
    """A Report for a submission whose grading could not finish: every task at 0, with the reason."""
    task_ids = tasks or list(rubric.points)
    return Report(
        submission=submission,
        score=0.0,
        max_score=float(sum(rubric.points[t] for t in task_ids)),
        tasks=tuple(TaskResult(t, TITLE[t], 0.0, float(rubric.points[t])) for t in task_ids),
        error=reason,
        kit_version=__version__,
        variant=graded_variant(rubric),
        **kw,
    )


def graded_variant(rubric: Rubric):
    """The variant a report names: the rubric's, or None for a course without [variants]."""
    return None if rubric.variants is None and rubric.variant.is_base else rubric.variant


def _task_result(task: str, cases: list[CaseResult], rubric: Rubric) -> TaskResult:
    points = float(rubric.points[task])
    counted = [c for c in cases if c.counted]
    passed = sum(c.status == "passed" for c in counted)
    return TaskResult(task, TITLE[task], round(points * passed / len(counted), 6) if counted else 0.0, points,
                      tuple(cases))


def _diagnosed(result: TaskResult, cases: list[Case], outcomes: dict[str, CaseOutcome], goldens: dict[str, dict],
               rubric: Rubric) -> TaskResult:
    """The task with the classic mistakes its observations fit (never a change of score)."""
    if result.status == "passed":
        return result
    from autograder import diagnosis  # a failing task's only

    own = [c for c in cases if c.task == result.id]
    found = diagnosis.diagnose(result.id, own, list(result.cases), outcomes, goldens,
                               rel_tol=rubric.rel_tol, abs_tol=rubric.abs_tol)
    return replace(result, diagnosis=found) if found else result


NOT_COUNTED = " (not counted here: your {needs} fails its own cases, and is charged there; fix it first)"


def _charge_elsewhere(cases: list[Case], by_task: dict[str, list[CaseResult]]) -> dict[str, list[CaseResult]]:
    """A case that needs other tasks (an end-to-end case needs backward()) counts only when those
    pass all their own cases; else its failure is charged to them, not again to its task.
    Whether a task is sound is judged on its own cases only, so the rule never goes round in circles."""
    own = {c.id for c in cases if not c.needs}
    sound = {task: all(r.status == "passed" for r in results if r.id in own) and any(r.id in own for r in results)
             for task, results in by_task.items()}
    needs = {c.id: c.needs for c in cases if c.needs}
    out = {}
    for task, results in by_task.items():
        out[task] = [
            replace(r, counted=False, charged_to=tuple(needs[r.id]),
                    message=r.message + NOT_COUNTED.format(needs=", ".join(needs[r.id])))
            if r.id in needs and r.status != "passed" and not all(sound.get(t, True) for t in needs[r.id])
            else r
            for r in results
        ]
    return out


def _case_result(case: Case, outcome: CaseOutcome, golden: dict, rubric: Rubric, explain: bool = True) -> CaseResult:
    public = case.visibility == "public"

    def result(status: str, message: str, lines: tuple[str, ...] = (), graph=None) -> CaseResult:
        if not public:
            # a hidden case says what went wrong in kind, never with its inputs, nor what it printed
            return CaseResult(case.id, status, case.visibility, _HIDDEN_MESSAGE[status])
        printed = shown(outcome.output) if status != "passed" else ""
        return CaseResult(case.id, status, case.visibility, message, case.title, lines, printed, graph=graph)

    if outcome.status == "ok":
        problems = compare(outcome.obs, golden, rel_tol=rubric.rel_tol, abs_tol=rubric.abs_tol)
        if not problems:
            return result("passed", "")
        close = closeness(rel_tol=rubric.rel_tol, abs_tol=rubric.abs_tol)
        graph = case_graph(case, outcome.obs, golden, close) if public else None
        origin = (graph.step[0].upper() + graph.step[1:] + ".",) if graph is not None and graph.step else ()
        return result("failed", problems[0], tuple(problems[1:]) + origin + _explain(case, outcome), graph)
    where = f" ({outcome.where})" if outcome.where else ""
    if outcome.status == "missing":
        return result("missing", f"not written yet: {outcome.message}" if outcome.message.strip()
                      else "not written yet (your code raises NotImplementedError)")
    if outcome.status == "timeout":
        return result("timeout", outcome.message or f"took longer than {rubric.case_timeout:g} s")
    if not explain and not outcome.where:  # its module did not import: the derivation would not help
        return result("error", outcome.message)
    return result("error", f"{outcome.message}{where}", _explain(case, outcome))


COMPOSITE = ("note: your {op} is built from other operations, so the kit ran the _backward of every node it "
             "made, not one closure: look at those operations' closures (and how they combine) too.")


def _explain(case: Case, outcome: CaseOutcome) -> tuple[str, ...]:
    lines = []
    if case.derivation:
        lines.append(f"derivation: {case.derivation}")
    if outcome.obs.get("composite") == 1.0:
        # the hint names a formula of the one-closure form (1 - t**2): the observations say there is none
        lines.append(COMPOSITE.format(op=case.task))
    return tuple(lines)  # the hint, where the case's observations fit it, follows (scoring/hinting.py)


_HIDDEN_MESSAGE = {
    "passed": "",
    "failed": "a hidden case gave a different result",
    "error": "a hidden case raised an error",
    "missing": "not written yet",
    "timeout": "a hidden case took too long",
}
