"""Is what a class's grading writes listed once, each file with the renderers that key its digest?"""
from __future__ import annotations

from autograder.batch.exports import CLASS_EXPORTS, STUDENT_EXPORTS, renderers
from autograder.paths import KIT_ROOT


def test_does_every_renderer_named_exist():
    for rel in renderers():
        assert (KIT_ROOT / "autograder" / rel).exists(), rel


def test_are_the_exports_distinct_and_each_rendered_by_something_of_its_own():
    names = [e.name for e in CLASS_EXPORTS] + [e.folder for e in STUDENT_EXPORTS]
    assert len(names) == len(set(names))
    assert all(e.renderers for e in (*CLASS_EXPORTS, *STUDENT_EXPORTS))


def test_do_the_outputs_of_a_batch_match_the_list(tmp_path):
    """The files write_outputs makes are exactly the listed exports (and nothing unlisted); forensics.csv only
    for a class graded with variants."""
    from autograder.batch.outputs import write_outputs
    from autograder.batch.store import BatchRow
    from autograder.report.model import CaseResult, Report, TaskResult

    graded = Report("ana", 5.0, 5.0, (TaskResult("mul", "the mul task", 5.0, 5.0, (CaseResult("mul/1", "passed"),)),))
    rows = [BatchRow("ana", graded, False, "folder", "ana", True)]
    write_outputs(tmp_path, rows)
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    listed = sorted([e.name for e in CLASS_EXPORTS if not e.only_with] + [f"{e.folder}/ana{e.suffix}" for e in STUDENT_EXPORTS])
    assert made == listed
