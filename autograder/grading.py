"""Grade one submission: load -> run (sandboxed child) -> score -> Report.

The API behind `autograder check` and `autograder grade PATH`. Whatever goes
wrong, the result is a Report (with `error` set), never an exception, except
for a kit bug (KitError) or a rubric that can't be used (ConfigError).
"""
from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.cases.model import Case
from autograder.config import ConfigError, Rubric
from autograder.goldens import GoldenStore, KitError
from autograder.report.model import Report
from autograder.runner import run_cases
from autograder.runner.limits import Limits
from autograder.scoring import crashed_report, score_run
from autograder.scratch import memory, scratch
from autograder.submission import SubmissionError, prepare
from autograder.tasks import TASK_IDS, TASK_MODULE
from autograder.variants.model import BASE


def select_cases(rubric: Rubric, *, include_hidden: bool, tasks: list[str] | None = None) -> list[Case]:
    """The cases to run: public ones, plus the hidden ones when grading, for the chosen tasks (those of the
    rubric's variant: the base assignment's, and its extra operation)."""
    task_ids = list(rubric.points)
    unknown = sorted(set(tasks or ()) - set(task_ids))
    if unknown:
        raise ConfigError(f"unknown task id(s) {', '.join(unknown)}; the tasks are {', '.join(task_ids)}")
    if include_hidden and rubric.hidden_seed is None:
        raise ConfigError(
            "grading needs a hidden seed: set hidden_seed in assignment.toml "
            "or the environment variable AUTOGRADER_HIDDEN_SEED"
        )
    key = (rubric.activation, rubric.variant, rubric.hidden_seed if include_hidden else None, include_hidden,
           tuple(sorted(set(tasks))) if tasks else None)
    cases = _CASES.get(key)
    if cases is None:
        cases = _build(rubric, include_hidden=include_hidden, tasks=tasks)
        _CASES[key] = cases
    return list(cases)


# the same arguments always build the same cases (frozen Case objects): build them once a process
_CASES: dict[tuple, tuple[Case, ...]] = {}


def _build(rubric: Rubric, *, include_hidden: bool, tasks: list[str] | None) -> tuple[Case, ...]:
    variant = rubric.variant
    public_seed = PUBLIC_SEED if variant.seed is None else variant.seed
    cases = build_cases(seed=public_seed, visibility="public", activation=rubric.activation, variant=variant)
    if include_hidden:
        cases += build_cases(seed=rubric.hidden_seed, visibility="hidden", activation=rubric.activation,
                             variant=variant)
    if tasks:
        # a chosen task's end-to-end cases count only while the tasks they need pass their own cases
        # (Case.needs): those own cases run too, unreported, so a task scores what a full check gives it
        needed = {t for c in cases if c.task in tasks for t in c.needs} - set(tasks)
        cases = [c for c in cases if c.task in tasks or (c.task in needed and not c.needs)]
    return tuple(cases)


def golden_groups(cases: list[Case], rubric: Rubric) -> list[list[Case]]:
    """The sets of cases whose goldens are kept together: those the class shares (the base assignment's on the
    variant's activation: one file per activation, computed once), apart from the variant's own (its extra
    operation's, its worked examples', its own seed's random cases); the base assignment's, one set."""
    if rubric.variant.is_base:
        return [cases]
    shared = _shared(rubric)
    groups = [[c for c in cases if _key(c) in shared], [c for c in cases if _key(c) not in shared]]
    return [g for g in groups if g]


def _key(case: Case) -> str:
    return json.dumps([case.id, case.program, case.params], sort_keys=True)


def _shared(rubric: Rubric) -> frozenset[str]:
    """The cases of the base assignment on the rubric's activation and hidden seed, as keys."""
    key = (rubric.activation, rubric.hidden_seed)
    if key not in _SHARED:
        base = select_cases(replace(rubric, variant=BASE), include_hidden=rubric.hidden_seed is not None)
        _SHARED[key] = frozenset(map(_key, base))
    return _SHARED[key]


_SHARED: dict[tuple, frozenset[str]] = {}


def golden_values(cases: list[Case], rubric: Rubric, store: GoldenStore) -> dict[str, dict]:
    """The goldens of `cases`, set by set (golden_groups)."""
    goldens: dict[str, dict] = {}
    for group in golden_groups(cases, rubric):
        goldens.update(store.goldens(group, activation=rubric.activation))
    return goldens


def limits_for(rubric: Rubric) -> Limits:
    return Limits(case_timeout=rubric.case_timeout, import_timeout=rubric.import_timeout, memory_mb=rubric.memory_mb,
                  submission_budget=rubric.submission_budget, one_time_work=rubric.one_time_work)


def grade_path(
    path: Path,
    *,
    rubric: Rubric,
    include_hidden: bool,
    tasks: list[str] | None = None,
    store: GoldenStore | None = None,
    name: str | None = None,
    forensics: bool = True,
    repair: bool = True,
) -> Report:
    """Grade the submission at `path` (folder, .py or .zip) and return its Report. forensics: with [variants],
    also sample the pool's operations (variants/forensics.py; off only to measure what it costs). repair: prove each
    named mistake by repairing a copy of the code (diagnosis/repair/; off only to measure what it costs)."""
    started = time.monotonic()
    name = name or Path(path).name or Path(path).resolve().name or str(path)  # `.` by its real name
    cases = select_cases(rubric, include_hidden=include_hidden, tasks=tasks)
    present = {c.task for c in cases}
    task_ids = [t for t in rubric.points if (t in tasks if tasks else t in present)]
    goldens = golden_values(cases, rubric, store or GoldenStore())
    # with [variants], a grading run also samples the pool's operations for forensics (never scored)
    samples = []
    if forensics and include_hidden and rubric.variants and not tasks:
        from autograder.variants.forensics import sample_cases

        samples = sample_cases(rubric.variants.pool)
    # the prepared copy in memory where it can be (scratch.memory: no disk's inodes, journal or discard)
    with scratch("autograder-", where=memory()) as work:
        try:
            prepared = prepare(Path(path), Path(work))
        except SubmissionError as err:
            return crashed_report(name, str(err), rubric, task_ids, sandbox="none",
                                  duration=time.monotonic() - started)
        def in_sandbox(root: Path, chosen: list[Case]):
            return run_cases(root, chosen, limits=limits_for(rubric), files=prepared.files,
                             forbidden=rubric.forbidden_imports, allowed=rubric.allowed_imports)
        try:
            run = in_sandbox(prepared.root, cases + samples)
        except (KitError, ConfigError):
            raise
        except Exception as err:  # the grading crashed: still a row, with the reason
            return crashed_report(name, f"grading crashed: {type(err).__name__}: {err}", rubric, task_ids,
                                  duration=time.monotonic() - started)
        if run.imports.forbidden:  # a module the engine loads imports torch (or the like): no marks
            return crashed_report(name, run.imports.forbidden, rubric, task_ids, sandbox=run.sandbox,
                                  duration=time.monotonic() - started)
        notes = tuple(prepared.problems) + tuple(run.notes) + _import_notes(run.imports)
        failed = run.imports.errors or run.imports.fatal  # prints at import are shown with the failure
        report = score_run(name, cases, run.outcomes, goldens, rubric, sandbox=run.sandbox, notes=notes,
                           only=task_ids, import_output=run.imports.output if failed else "",
                           import_errors=_import_errors(run.imports))
        report = _with_places(report, run.imports)
        # each named mistake repaired in a copy of the student's code, and its task's cases run on it (a child)
        if repair and any(t.diagnosis for t in report.tasks):  # imported only then: a passing check needs none of it
            from autograder.diagnosis.repair import prove

            report = prove(report, root=prepared.root, files=prepared.files, cases=cases, goldens=goldens,
                           rel_tol=rubric.rel_tol, abs_tol=rubric.abs_tol, level=rubric.feedback,
                           run=lambda root, chosen: in_sandbox(root, chosen).outcomes, work=Path(work))
    report = replace(report, duration=time.monotonic() - started)
    if not samples:
        return report
    from autograder.variants.forensics import samples_from

    return replace(report, samples=samples_from(run.outcomes))


CELLS_LISTED = 3


def _with_places(report, imports):
    """The report with where each task's code is, and the line of each SyntaxError (child/places.py)."""
    places = dict(imports.places)
    tasks = tuple(replace(t, where=places[t.id]) if t.id in places else t for t in report.tasks)
    return replace(report, tasks=tasks, syntax=imports.syntax)


def _import_errors(imports) -> tuple[tuple[str, str], ...]:
    """The modules that did not import, with why; all of them when the import hung or died (fatal)."""
    if imports.fatal:
        return tuple((module, imports.fatal) for module in dict.fromkeys(TASK_MODULE.values()))
    return tuple((module, why) for module, why in sorted(imports.errors.items()) if why)


def _import_notes(imports) -> tuple[str, ...]:
    # a single-file submission is three modules of one file: say its error once
    notes = tuple(dict.fromkeys(message for message in imports.errors.values() if message))
    notes += imports.adapted + imports.deviations  # how the kit fitted itself to the engine, and where it could not
    failed, count = imports.cell_errors, imports.cells_failed  # parse_import keeps count >= len(failed)
    if failed:
        more = f"; and {count - CELLS_LISTED} more" if count > CELLS_LISTED else ""
        notes += (f"{count} cell(s) of the notebook raised or ran too long, and the cells after each ran on, "
                  f"as nbgrader and otter run a notebook: {'; '.join(failed[:CELLS_LISTED])}{more}",)
    return notes
