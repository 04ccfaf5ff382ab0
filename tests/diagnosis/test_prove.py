"""Is a named mistake shown only as far as its repair proves it, and as far as the course's ladder allows?

prove() is given a report whose mul names `overwrites_grad`, a submission with `=` in mul's closure, and a
stand-in for the sandbox (`run`): the outcomes a child would send back for the repaired copy.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from autograder.config import ConfigError, from_mapping
from autograder.diagnosis.repair import prove
from autograder.report.model import CaseResult, Diagnosis, Place, Report, TaskResult
from autograder.runner.protocol import CaseOutcome
from autograder.paths import SOLUTIONS

RULE = "`x.grad = ...` in *'s _backward overwrites what another path already added: use `+=`."
CASES = [SimpleNamespace(id=f"mul-{i}", task="mul") for i in range(3)]
GOLDENS = {c.id: {"a.grad": 2.0} for c in CASES}


def _report(*, mistake: str = "overwrites_grad") -> Report:
    task = TaskResult("mul", "the _backward of a * b", 0.0, 5.0,
                      tuple(CaseResult(c.id, "failed") for c in CASES), (Diagnosis(mistake, RULE),))
    return Report("alice", 0.0, 5.0, (task,))


@pytest.fixture
def submission(tmp_path):
    package = tmp_path / "sub" / "micrograd"
    package.mkdir(parents=True)
    engine = (SOLUTIONS / "micrograd" / "engine.py").read_text()
    broken = engine.replace("            self.grad += other.data * out.grad", "            self.grad = other.data * out.grad")
    (package / "engine.py").write_text(broken)
    return tmp_path


def _prove(tmp_path, status: str = "ok", grad: float = 2.0, level: str = "fix", mistake: str = "overwrites_grad"):
    ran = []

    def run(root, cases):
        ran.append((root, [c.id for c in cases], (root / "micrograd" / "engine.py").read_text()))
        return {c.id: CaseOutcome(c.id, status, {"a.grad": grad}) for c in cases}
    report = prove(_report(mistake=mistake), root=tmp_path / "sub", files={"engine": "hw/engine.py"}, cases=CASES,
                   goldens=GOLDENS, rel_tol=1e-6, abs_tol=1e-8, level=level, run=run, work=tmp_path)
    return report.task("mul").diagnosis, ran


def test_is_a_mistake_whose_repair_passes_every_case_proven_with_its_fix_and_line(submission):
    (found,), ran = _prove(submission)
    assert found.proven and found.message == RULE and found.where == Place("hw/engine.py", 50)
    assert found.fix == ("The fix: `+=` in place of `=` on hw/engine.py line 50. With it all 3 mul cases pass. "
                         "The new line: `self.grad += other.data * out.grad`.")
    (root, ids, text), = ran
    assert ids == [c.id for c in CASES] and "self.grad += other.data * out.grad" in text
    assert "self.grad = other.data" in (submission / "sub" / "micrograd" / "engine.py").read_text()  # the copy only


def test_is_a_mistake_whose_repair_leaves_a_case_failing_withdrawn(submission):
    """The observations fit the mistake, but mending it does not mend the task: no name at all."""
    found, ran = _prove(submission, grad=5.0)
    assert ran and found == ()


def test_does_a_repair_run_that_did_not_finish_leave_the_mistake_likely_and_unproven(submission):
    (found,), _ = _prove(submission, status="timeout")
    assert not found.proven and found.fix is None and found.where is None and found.message == RULE


def test_does_a_mistake_whose_repair_finds_no_spot_stay_likely_with_no_child_run(submission):
    (found,), ran = _prove(submission, mistake="swapped_operands")  # the engine's mul has no such line
    assert not ran and not found.proven and found.fix is None and found.message == RULE


@pytest.mark.parametrize("level", ["where", "rule", "fix"])
def test_does_the_ladder_show_what_the_course_chose(submission, level):
    (found,), _ = _prove(submission, level=level)
    assert found.proven and found.where == Place("hw/engine.py", 50)
    assert (found.fix is not None) == (level == "fix")
    if level == "where":
        assert found.message == "Look again at hw/engine.py line 50: a change there makes all 3 mul cases pass."
    else:
        assert found.message == RULE


def test_does_the_where_rung_show_nothing_of_an_unproven_mistake(submission):
    found, _ = _prove(submission, status="timeout", level="where")
    assert found == ()


def test_is_a_bad_ladder_value_one_line():
    with pytest.raises(ConfigError) as err:
        from_mapping({"feedback": {"diagnosis": "everything"}}, source="assignment.toml")
    assert str(err.value) == ('assignment.toml: [feedback] takes diagnosis = "where" | "rule" | "fix", '
                              "not {'diagnosis': 'everything'}")
    assert from_mapping({"feedback": {"diagnosis": "where"}}).feedback == "where"
    assert from_mapping({}).feedback == "fix"


def test_is_the_repaired_copy_made_of_links_with_only_the_repaired_file_new_and_the_prepared_one_untouched(
        submission):
    """The copy links the prepared files (one system call each, not a copy with its metadata); the repaired file is
    a new file in its link's place, so the prepared folder the report's lines are read from keeps the student's text."""
    package = submission / "sub" / "micrograd"
    (package / "nn.py").write_text("# the student's nn, not repaired\n")
    (package / "engine.py").chmod(0o640)
    before = {p.name: (p.read_bytes(), p.stat().st_ino) for p in package.iterdir()}
    (found,), ran = _prove(submission)
    assert found.proven
    copy = ran[0][0] / "micrograd"
    assert {p.name: (p.read_bytes(), p.stat().st_ino) for p in package.iterdir()} == before  # nothing written through
    assert (copy / "nn.py").stat().st_ino == before["nn.py"][1]  # a link: the same file
    assert (copy / "engine.py").stat().st_ino != before["engine.py"][1]
    assert "self.grad += other.data * out.grad" in (copy / "engine.py").read_text()
    assert (copy / "engine.py").stat().st_mode & 0o777 == 0o640  # the mode it replaced
