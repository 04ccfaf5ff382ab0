"""Can a copier hide a copy of another student's engine from forensics by adding its own operation to it?

Issue 28, class 4. Forensics flagged only a submission that fits another student's variant and not its
own; a copier handed in the source student's whole engine (the source's extra operation, with the
source's exact constant) with its own extra operation added: it fits its own variant, and was never
flagged, though no honest stub leads to another student's constant. What the code computes is
evidence too: another operation of the pool at another student's exact constant is named in
forensics.csv with whose, while honest submissions (two students who share a variant, an engine holding
a textbook operation beside its own) are never flagged.
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from autograder.batch.discover import discover
from autograder.batch.run import grade_batch
from autograder.config import from_mapping
from autograder.exercises.variant_source import ANCHOR, write_package
from autograder.tasks import VARIANT_OPS
from autograder.variants.assign import variant_of

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6, "vary": ["op"], "pool": list(VARIANT_OPS)}})
TEXTBOOK_SIGMOID = '''    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))     # the lecture's sigmoid: no constant of anyone's
        out = Value(s, (self,), 'sigmoid')

        def _backward():
            self.grad += s * (1 - s) * out.grad
        out._backward = _backward
        return out

'''


def _ids() -> dict[str, str]:
    """Roster ids for the roles (their variants drawn from the course's secret): a source and a copier of two
    operations, two students who share one variant, and a student whose operation is not sigmoid."""
    seen: dict[tuple[str, float], str] = {}
    twins = None
    for i in range(50_000):
        v = variant_of(COURSE, f"s{i}")
        if (v.op, v.constant) in seen:
            twins = (seen[(v.op, v.constant)], f"s{i}")
            break
        seen[(v.op, v.constant)] = f"s{i}"
    assert twins, "no two ids share a variant in 50,000"
    ops = {f"s{i}": variant_of(COURSE, f"s{i}").op for i in range(40)}
    source = next(i for i, op in ops.items() if op not in ("sigmoid", variant_of(COURSE, twins[0]).op))
    copier = next(i for i, op in ops.items() if op not in ("sigmoid", ops[source]))
    textbook = next(i for i, op in ops.items() if op != "sigmoid" and i not in (source, copier))
    return {"source": source, "copier": copier, "twin-a": twins[0], "twin-b": twins[1], "textbook": textbook}


def _method(engine: str, op: str) -> str:
    """The text of Value.<op>() in an engine.py written by write_package."""
    start = engine.index(f"    def {op}(self):")
    return engine[start:engine.index(ANCHOR, start)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("laundered")
    ids = _ids()
    for role, sid in ids.items():
        write_package(root / "class" / sid, variant_of(COURSE, sid), solution=True)
    # the copier: the source's whole engine (its operation, its constant), with the copier's own operation added
    source = (root / "class" / ids["source"] / "micrograd" / "engine.py").read_text()
    mine = _method((root / "class" / ids["copier"] / "micrograd" / "engine.py").read_text(),
                   variant_of(COURSE, ids["copier"]).op)
    (root / "class" / ids["copier"] / "micrograd" / "engine.py").write_text(source.replace(ANCHOR, mine + ANCHOR))
    # honest: the lecture's sigmoid beside its own operation
    textbook = root / "class" / ids["textbook"] / "micrograd" / "engine.py"
    textbook.write_text(textbook.read_text().replace(ANCHOR, TEXTBOOK_SIGMOID + ANCHOR))
    result = grade_batch(discover([root / "class"]).entries, root / "out", rubric=COURSE, workers=2, progress=False)
    rows = list(csv.DictReader((root / "out" / "forensics.csv").read_text(encoding="utf-8").splitlines()))
    return ids, {row.student: row.report for row in result.rows}, rows


def test_is_every_submission_graded_in_full_on_its_own_variant(graded):
    ids, reports, _ = graded
    for role, sid in ids.items():
        report = reports[sid]
        assert report.error is None and report.score == report.max_score, (role, report.score, report.notes)


def test_is_a_copy_with_its_own_operation_added_named_with_whose(graded):
    ids, _, rows = graded
    copier = [r for r in rows if r["student"] == ids["copier"]]
    assert len(copier) == 1, rows
    assert copier[0]["solves_variant_of"] == ids["source"] and copier[0]["finding"] == "beside"
    assert copier[0]["their_variant"] == variant_of(COURSE, ids["source"]).op_label
    assert f"a.{variant_of(COURSE, ids['source']).op}() at a = " in copier[0]["evidence"]


def test_is_no_honest_submission_flagged(graded):
    """The source, two students sharing a variant, and a lecture sigmoid beside its own operation."""
    ids, _, rows = graded
    assert {r["student"] for r in rows} == {ids["copier"]}, rows
