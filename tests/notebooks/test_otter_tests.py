"""Does the otter edition's tests/ folder give `otter check FILE -q TASK` each question's public tests,
worth something, and nothing hidden? (That otter assign puts the same tests in the student copy's
metadata, and the real `otter check` on them, are in tests/editions/test_otter.py, slow.)"""
from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.config import Rubric
from autograder.editions.otter import write_master
from autograder.notebooks.otter_master import CONFIG, master_notebook
from autograder.notebooks.otter_tests import student_tests
from autograder.tasks import TASK_IDS

RUBRIC = replace(Rubric(), hidden_seed=4242, points={**Rubric().points, "add": 0.0})


@pytest.fixture(scope="module")
def master():
    return master_notebook(RUBRIC)


def test_does_each_question_get_its_public_cases_tests_and_no_hidden_one(master):
    tests = student_tests(master)
    assert list(tests) == ["warmup", *TASK_IDS]
    public = [c for c in build_cases(seed=PUBLIC_SEED, visibility="public") if c.visibility == "public"]
    for task in TASK_IDS:
        codes = [case["code"] for case in tests[task]["suites"][0]["cases"]]
        want = [c.id for c in public if c.task == task]
        assert [code.split("case(")[-1].split(")")[0].strip("'\"") for code in codes] == want, task
        assert all(code.endswith("\nTrue") and not case["hidden"]
                   for code, case in zip(codes, tests[task]["suites"][0]["cases"])), task
    text = repr(tests)
    assert "hidden-" not in text and "score_part" not in text and "4242" not in text


def test_does_otter_make_every_question_worth_one_in_them_even_a_task_worth_0(master):
    """otter check divides the points of the tests that passed by those possible: never 0 here, even for
    warmup (worth 0 in grading) or a task the rubric makes worth 0."""
    ok_test = pytest.importorskip("otter.test_files.ok_test")
    for name, spec in student_tests(master).items():
        test_file = ok_test.OKTestFile.from_spec(spec)
        assert test_file.possible == pytest.approx(1.0), name


def test_does_the_export_write_them_as_otter_files_that_otter_assign_copies_to_the_student(tmp_path):
    """tests/ is in the master's `files` (otter assign copies it to dist/student); each file is an
    otter OK-format test file that otter reads back as written."""
    ok_test = pytest.importorskip("otter.test_files.ok_test")
    assert "tests" in yaml.safe_load(CONFIG.split("\n", 1)[1])["files"]
    assert yaml.safe_load(CONFIG.split("\n", 1)[1])["tests"]["files"] is False  # a lone notebook still checks
    written = write_master(tmp_path / "hw1", RUBRIC)
    tests = student_tests(master_notebook(RUBRIC))
    files = sorted(p for p in written if p.parent == tmp_path / "hw1" / "tests")
    assert [p.stem for p in files] == sorted(tests)
    for path in files:
        test_file = ok_test.OKTestFile.from_file(str(path))
        assert test_file.name == path.stem and len(test_file.test_cases) == \
            len(tests[path.stem]["suites"][0]["cases"])
        assert [tc.body for tc in test_file.test_cases] == [c["code"] for c in tests[path.stem]["suites"][0]["cases"]]
