"""A class with variants graded end to end: marks on each student's own variant, and copies named by whose.

The simulated class (simulated_class.py) holds correct solutions of each student's own variant, buggy
ones, planted copies of another student's engine and pasted copies of the lecture's engine; it is
graded as `autograder grade CLASS --out OUT` grades it (each student's variant drawn from the folder's
id, the course's secret, the sandboxed child).
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from autograder.batch.discover import discover
from autograder.batch.run import grade_batch
from autograder.config import from_mapping
from autograder.variants.assign import variant_of
from autograder.tasks import VARIANT_OPS
from simulated_class import plan, write_class

# every dimension but the random cases' seed (~10 s of goldens per student: a class of 200 would take half an
# hour of CPU), and every operation of the pool; SEEDED varies the seed too, for a smaller class
VARIED = {"points": 6, "vary": ["op", "activation", "worked"], "pool": list(VARIANT_OPS)}
COURSE = from_mapping({"hidden_seed": 424242, "variants": VARIED})
SEEDED = from_mapping({"hidden_seed": 424242, "variants": {**VARIED, "vary": [*VARIED["vary"], "seed"]}})


def _grade_class(tmp_path: Path, n: int, course=COURSE, **kinds):
    students = plan(n, **kinds)
    root = write_class(tmp_path / "class", students, course)
    result = grade_batch(discover([root]).entries, tmp_path / "out", rubric=course, workers=2, progress=False)
    return students, {row.student: row.report for row in result.rows}, tmp_path / "out"


def _check(students, reports, out: Path, course=COURSE) -> None:
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    flagged = {f["student"]: f for f in summary["forensics"]["flags"]}
    for s in students:
        report = reports[s.id]
        own = variant_of(course, s.id)
        assert report.error is None, (s, report.error)
        assert report.variant == own
        if s.kind == "correct":
            assert report.score == report.max_score == course.max_score + 6, s
        else:
            assert report.score < report.max_score, s
        named = {t.id: [d.id for d in t.diagnosis] for t in report.tasks if t.diagnosis}
        if s.kind == "buggy":  # its extra operation's closure without `* out.grad`: named, and nothing else
            assert named == {own.op: ["missing_upstream_grad"]}, (s, named)
        else:  # another function than its own (a copy), or none (the lecture's): no mistake of a closure fits
            assert named == {}, (s, named)
        if s.kind == "copy":
            assert s.id in flagged, s
            assert flagged[s.id]["sources"][0] == s.source, (s, flagged[s.id])
            assert "gave" in flagged[s.id]["evidence"]
        else:
            assert s.id not in flagged, (s, flagged.get(s.id))
    rows = list(csv.DictReader((out / "forensics.csv").read_text(encoding="utf-8").splitlines()))
    assert {r["student"] for r in rows} == {s.id for s in students if s.kind == "copy"}
    gradebook = (out / "gradebook.csv").read_text(encoding="utf-8")
    assert gradebook.splitlines()[0].endswith(",variant")
    assert "## Forensics" in (out / "summary.md").read_text(encoding="utf-8")


def test_does_a_small_class_get_its_variants_and_its_copies_named(tmp_path):
    students, reports, out = _grade_class(tmp_path, 8, copies=2, buggy=1, lecture=1)
    _check(students, reports, out)


@pytest.mark.slow
def test_does_a_class_with_its_own_random_cases_too_get_the_same(tmp_path):
    """Every dimension varied, each student's public random cases drawn from their own seed as well."""
    students, reports, out = _grade_class(tmp_path, 6, SEEDED, copies=1, buggy=1, lecture=1)
    _check(students, reports, out, SEEDED)
    assert len({reports[s.id].variant.seed for s in students}) == len(students)


@pytest.mark.slow
def test_does_a_class_of_200_get_full_marks_where_correct_and_every_copy_named(tmp_path):
    """150 correct, 20 planted copies, 20 buggy, 10 pasted lecture engines: no honest one flagged."""
    students, reports, out = _grade_class(tmp_path, 200, copies=20, buggy=20, lecture=10)
    _check(students, reports, out)


def test_do_two_shards_of_a_class_with_variants_merge_into_the_one_machine_files(tmp_path):
    """Each shard grades its students against their own variants; the merge's forensics and gradebook are
    the one-machine run's, byte for byte."""
    from autograder.batch.merge import merge_shards
    from autograder.batch.shard import parse_shard
    from autograder.batch.shard_run import grade_shard

    students, _, one = _grade_class(tmp_path, 6, copies=1, lecture=1)
    entries = discover([tmp_path / "class"]).entries
    shards = [tmp_path / f"shard{i}" for i in (1, 2)]
    for i, folder in enumerate(shards, start=1):
        grade_shard(entries, folder, shard=parse_shard(f"{i}/2"), rubric=COURSE, workers=2, progress=False)
    merge_shards(shards, tmp_path / "merged", rubric=COURSE)
    for name in ("gradebook.csv", "forensics.csv", "summary.json"):
        assert (tmp_path / "merged" / name).read_bytes() == (one / name).read_bytes(), name
