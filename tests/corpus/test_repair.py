"""Is a named mistake proven by repairing the student's own code (issue 30), and is no fix ever shown that
does not make the cases pass?

Graded with the hidden cases, RUNS times (conftest's `graded`), every variant's report says for each named
mistake whether the repair it implies, made on a copy of that variant's code, made every case of its task
pass in the sandbox (`proven`), and, proven, the change (`fix`):
- at least 95% of the variants' named mistakes are proven, on every run;
- a fix is shown only for a proven mistake; and each fix shown holds: the variant's code with the repair
  made, graded again from scratch as a submission of its own, passes every case of that task;
- the engines in real students' shapes (real_shapes.py) have their named mistakes proven too, one
  repair each even where a task makes two mistakes at once.
"""
from __future__ import annotations

import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import real_shapes as shapes
import variants as corpus

pytestmark = pytest.mark.corpus

MIN_PROVEN = 0.95


def _entry(graded_run, variant):
    """(proven, fix) of the variant's named mistake in one run, or None where it was not named."""
    found = {m: (proven, fix) for m, proven, fix in (graded_run.proofs or {}).get(variant.task, ())}
    return found.get(corpus.NAMED[variant.id])


def test_are_95_percent_of_the_named_mistakes_proven_by_repair_on_every_run(graded):
    named = [v for v in corpus.VARIANTS if corpus.NAMED[v.id]]
    unproven = {v.id: [_entry(r, v) for r in graded[v.id]] for v in named
                if not all((_entry(r, v) or (False,))[0] for r in graded[v.id])}
    proven = 1 - len(unproven) / len(named)
    assert proven >= MIN_PROVEN, f"{proven:.1%} proven; not: {unproven}"


def test_is_a_fix_shown_only_for_a_proven_mistake(graded):
    unproven_fixes = {name: r.proofs for name, runs in graded.items() for r in runs
                      for entries in (r.proofs or {}).values() for _, proven, fix in entries if fix and not proven}
    assert not unproven_fixes


def _regrade_repaired(job: tuple[str, str, str]) -> tuple[str, float, float, tuple]:
    from autograder.config import load_rubric
    from autograder.diagnosis.repair.apply import repaired
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    variant = corpus.by_id()[name]
    texts, edits = repaired(Path(path) / "micrograd", variant.task, (corpus.NAMED[name],))
    for rel, text in texts.items():
        (Path(path) / "micrograd" / rel).write_text(text, encoding="utf-8")
    report = grade_path(Path(path), rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=True, tasks=[variant.task],
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    task = report.task(variant.task)
    return name, task.score, task.max_score, tuple(d.id for d in task.diagnosis)


def test_does_every_fix_shown_make_all_the_cases_of_its_task_pass(graded, work):
    shown = [v for v in corpus.VARIANTS if corpus.NAMED[v.id] and any((_entry(r, v) or (0, None))[1]
                                                                      for r in graded[v.id])]
    assert len(shown) >= 0.95 * sum(1 for v in corpus.VARIANTS if corpus.NAMED[v.id])
    root = work / "repaired"
    shutil.rmtree(root, ignore_errors=True)
    jobs = [(v.id, str(corpus.build(v, root / v.id)), str(work / "goldens")) for v in shown]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_regrade_repaired, jobs))
    failing = {name: (score, top, named) for name, score, top, named in results if score < top or named}
    assert not failing


def _grade_shape(job: tuple[str, str, str]) -> tuple[str, dict]:
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path

    name, path, cache = job
    report = grade_path(Path(path), rubric=load_rubric(corpus.RUBRIC_FILE), include_hidden=True,
                        store=GoldenStore(cache_dir=Path(cache)), name=name)
    return name, {t.id: tuple((d.id, d.proven, bool(d.fix), d.where.file if d.where else None) for d in t.diagnosis)
                  for t in report.tasks if t.diagnosis}


def test_are_the_mistakes_named_in_real_students_shapes_proven(work):
    named = [s for s in shapes.SHAPES if s.named]
    corpus.warm_goldens(work / "goldens")
    jobs = [(s.id, str(shapes.submission(s, work / "proven-shapes" / s.id)), str(work / "goldens")) for s in named]
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = dict(pool.map(_grade_shape, jobs))
    for shape in named:
        assert {t: tuple(e[0] for e in entries) for t, entries in found[shape.id].items()} == shape.named
        assert all(proven and fix and file == "micrograd/engine.py"
                   for entries in found[shape.id].values() for _, proven, fix, file in entries), found[shape.id]
