"""Does a class split into shards and merged give, file for file, what one machine writes? Does the
merge refuse shards that don't belong together, and say which? Does a shard cut off resume?"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from autograder.batch.merge import merge_shards
from autograder.batch.run import BatchInputError, BatchInterrupted, grade_batch
from autograder.batch.shard import Shard, ShardError, parse_shard, shard_of
from autograder.batch.shard_run import grade_shard
from autograder.config import Rubric
from batch_fakes import calls, entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)
NAMES = [f"s{i:03d}" for i in range(40)]


def class_files(out: Path) -> dict[str, bytes]:
    """Every file a class's grading writes (not the store, not the lock)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in ("gradebook.sqlite", "gradebook.sqlite-wal", "gradebook.sqlite-shm",
                                              ".autograder.lock")}


@pytest.fixture
def klass(tmp_path):
    """40 fake submissions, a few failing tasks, two of them crashing the grading."""
    plans = {s: {"fail": ("mul",) if i % 3 == 0 else ()} for i, s in enumerate(NAMES)}
    plans["s007"] = {"do": "raise"}
    log = tmp_path / "calls.log"
    return [entry(s, submission(tmp_path / "in", s, log=log, **p), late=s == "s011") for s, p in plans.items()], log


def shards(entries, root: Path, n: int, **kw) -> list[Path]:
    outs = []
    for i in range(1, n + 1):
        out = root / f"shard-{i}"
        grade_shard(entries, out, shard=Shard(i, n), rubric=kw.get("rubric", RUBRIC), grade_one=grade_fake,
                    progress=False, workers=2, intake=("note: one junk file skipped",))
        outs.append(out)
    return outs


def test_is_a_students_shard_their_own_whoever_else_is_in_the_class():
    assert [shard_of(s, 4) for s in NAMES] == [shard_of(s, 4) for s in NAMES]
    assert all(1 <= shard_of(s, 4) <= 4 for s in NAMES)
    assert {shard_of(s, 4) for s in NAMES} == {1, 2, 3, 4}
    assert sum(Shard(i, 3).owns("ana") for i in (1, 2, 3)) == 1


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", ""])
def test_is_a_wrong_shard_one_clear_line(text):
    with pytest.raises(ShardError, match="I/N"):
        parse_shard(text)


def test_do_merged_shards_write_byte_for_byte_what_one_machine_writes(klass, tmp_path):
    entries, log = klass
    one = tmp_path / "one"
    grade_batch(entries, one, rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2,
                intake=("note: one junk file skipped",))
    outs = shards(entries, tmp_path, 3)
    assert sorted(calls(log)) == sorted(NAMES * 2)  # each shard graded only its own
    result = merge_shards(outs, tmp_path / "merged", rubric=RUBRIC)
    assert [r.student for r in result.rows] == NAMES
    assert class_files(tmp_path / "merged") == class_files(one)
    assert "gradebook.csv" in class_files(one) and len(class_files(one)) > 80


def test_does_the_merge_refuse_a_missing_a_doubled_or_another_splits_shard(klass, tmp_path):
    entries, _ = klass
    outs = shards(entries, tmp_path, 3)
    with pytest.raises(BatchInputError, match=r"shard\(s\) 2/3 missing"):
        merge_shards([outs[0], outs[2]], tmp_path / "m", rubric=RUBRIC)
    with pytest.raises(BatchInputError, match="shard 1/3 is given twice"):
        merge_shards([outs[0], outs[0], outs[1], outs[2]], tmp_path / "m", rubric=RUBRIC)
    other = tmp_path / "other"
    grade_shard(entries, other, shard=Shard(1, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False)
    with pytest.raises(BatchInputError, match="different splits"):
        merge_shards([*outs, other], tmp_path / "m", rubric=RUBRIC)
    with pytest.raises(BatchInputError, match="not a shard's output"):
        merge_shards([tmp_path / "in"], tmp_path / "m", rubric=RUBRIC)
    assert not (tmp_path / "m").exists()  # nothing written


@pytest.mark.parametrize("change, says", [
    (dict(hidden_seed=43), "another hidden seed"),
    (dict(points={**Rubric().points, "mul": 7.0}), "another rubric"),
    (dict(activation="relu"), "another assignment"),
])
def test_does_the_merge_refuse_shards_of_another_assignment_rubric_or_seed_and_say_which(klass, tmp_path, change, says):
    entries, _ = klass
    outs = shards(entries, tmp_path, 2)
    odd = tmp_path / "odd"
    grade_shard(entries, odd, shard=Shard(2, 2), rubric=replace(RUBRIC, **change), grade_one=grade_fake,
                progress=False)
    with pytest.raises(BatchInputError, match=f"shard 2/2 \\({odd}\\) was graded with {says}"):
        merge_shards([outs[0], odd], tmp_path / "m", rubric=RUBRIC)


def test_does_the_merge_refuse_shards_run_on_another_class(klass, tmp_path):
    entries, _ = klass
    outs = shards(entries, tmp_path, 2)
    fewer = tmp_path / "fewer"
    grade_shard(entries[:-1], fewer, shard=Shard(2, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False)
    with pytest.raises(BatchInputError, match="another class"):
        merge_shards([outs[0], fewer], tmp_path / "m", rubric=RUBRIC)


def test_does_a_shard_cut_off_part_way_resume_with_nothing_lost_or_graded_twice(klass, tmp_path, ctrl_c_at_a_terminal):
    entries, log = klass
    mine = [e for e in entries if Shard(1, 2).owns(e.student)]
    victim = mine[len(mine) // 2].student
    flag = tmp_path / "flag"
    cut = [replace(e, where=submission(tmp_path / "in2", e.student, log=log, do="sigint_once", flag=str(flag)))
           if e.student == victim else e for e in entries]
    out = tmp_path / "shard-1"
    with pytest.raises(BatchInterrupted):
        grade_shard(cut, out, shard=Shard(1, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=1)
    second = tmp_path / "shard-2"
    grade_shard(cut, second, shard=Shard(2, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False)
    with pytest.raises(BatchInputError, match="shard 1/2 .* did not finish"):
        merge_shards([out, second], tmp_path / "m", rubric=RUBRIC)
    before = calls(log)
    grade_shard(cut, out, shard=Shard(1, 2), rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=1)
    again = calls(log)[len(before):]
    graded_first = [s for s in before if Shard(1, 2).owns(s)]
    assert sorted(set(graded_first) - {victim} | set(again)) == sorted(e.student for e in mine)
    assert not (set(again) & (set(graded_first) - {victim}))  # nothing finished was graded again
    merged = merge_shards([out, second], tmp_path / "m", rubric=RUBRIC)
    assert [r.student for r in merged.rows] == NAMES
    one = tmp_path / "one"
    grade_batch(cut, one, rubric=RUBRIC, grade_one=grade_fake, progress=False)
    assert class_files(tmp_path / "m") == class_files(one)
