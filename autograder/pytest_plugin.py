"""The pytest route: the public cases as one test item per task.

    pytest --submission path/to/work      # from the kit
    pytest                                # in a student handout (its pytest.ini names the submission)

Without --submission (or the ini option `autograder_submission`) the plugin
does nothing, so it never changes another test suite.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from autograder.errors import UserError
from autograder.report.task_text import explain_task, printed
from autograder.tasks import TASK_IDS


def pytest_addoption(parser):
    group = parser.getgroup("autograder")
    group.addoption("--submission", metavar="PATH", help="grade this micrograd submission on the public cases, one test per task")
    parser.addini("autograder_submission", "the submission the handout's tests grade", default="")


def _submission(config) -> Path | None:
    given = config.getoption("--submission") or config.getini("autograder_submission")
    if not given:
        return None
    path = Path(given)
    return path if path.is_absolute() else (Path(config.rootpath) / path)


def pytest_collection_modifyitems(session, config, items):
    """The submission's tasks replace whatever else was collected, through pytest's own collection
    (so the count says "collected 14 items" and the ids read "micrograd::test_mul")."""
    submission = _submission(config)
    if submission is None:
        return
    name = "micrograd" if (submission / "micrograd").is_dir() else submission.resolve().name or "submission"
    items[:] = list(session.genitems(SubmissionCollector.from_parent(session, name=name, nodeid=name)))


class SubmissionCollector(pytest.Collector):
    """The submission under test: one TaskItem per task."""

    def collect(self):
        try:
            variant = _handout_variant(_submission(self.config))
        except UserError as err:   # an edited variant file: its one line, no traceback
            raise self.CollectError(f"autograder: {err}") from None
        for task in TASK_IDS + variant.tasks:
            yield TaskItem.from_parent(self, name=f"test_{task}", task=task)


def _handout_variant(submission: Path):
    """The variant of the handout this runs in (its extra operation is one more test), else the base one:
    checked against the course's key in the handout's assignment.toml, as the grading of it is."""
    from autograder import paths
    from autograder.config import load_rubric
    from autograder.variants.handout_file import VARIANT_FILE, handout_rubric
    from autograder.variants.model import BASE
    if not (paths.KIT_ROOT / "autograder" / VARIANT_FILE).is_file():
        return BASE   # the rubric is read by each task then: a broken one fails each in one line
    return handout_rubric(load_rubric(search=submission if submission.is_dir() else submission.parent)).variant


class TaskFailed(Exception):
    pass


class TaskItem(pytest.Item):
    def __init__(self, *, task: str, **kwargs):
        super().__init__(**kwargs)
        self.task = task

    def runtest(self):
        try:
            report = _report(self.config)
        except UserError as err:  # a rubric that can't work, a system that can't run the child: one line
            raise TaskFailed(f"autograder: {err}") from None
        at_import = printed("your code printed while it was imported:", report.import_output, "")
        if report.error:
            raise TaskFailed(report.error + at_import)
        task = report.task(self.task)
        if task.status != "passed":
            raise TaskFailed(explain_task(task, report=report) + at_import)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, TaskFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"task {self.task}"


def _report(config):
    """Grade once per session; every task item reads the same report."""
    cached = getattr(config, "_autograder_report", None)
    if cached is None:
        from autograder.config import load_rubric
        from autograder.grading import grade_path
        from autograder.variants.handout_file import handout_rubric

        submission = _submission(config)
        rubric = handout_rubric(load_rubric(search=submission if submission.is_dir() else submission.parent))
        cached = grade_path(submission, rubric=rubric, include_hidden=False)
        config._autograder_report = cached
    return cached
