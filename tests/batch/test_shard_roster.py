"""Does a class graded in shards with --roster, then merged, give byte for byte what one machine writes with
that roster (unrostered rows, a missing row for every rostered student no shard has, the summary's roster
section)? Does the merge refuse shards graded with another roster, in one line? Through the CLI's commands."""
from __future__ import annotations

import csv
import json

import pytest
from rich.console import Console

from autograder.cli import main
from autograder.cli.batch import run_batch_command
from autograder.config import load_rubric
from batch_fakes import grade_fake, submission
from test_shards import class_files

NAMES = [f"s{i:03d}" for i in range(12)]
ROSTER = [*NAMES[:10], "bea", "cyd"]   # s010, s011 not on it; bea and cyd handed nothing in


def course(tmp_path, variants: bool):
    toml = tmp_path / "assignment.toml"
    toml.write_text("hidden_seed = 42\n" + ("[variants]\npoints = 6\n" if variants else ""))
    return toml


def grade(tmp_path, toml, out, roster=None, shard=None) -> int:
    console = Console(width=200, highlight=False, force_terminal=False)
    return run_batch_command([tmp_path / "class"], out, 2, False, load_rubric(toml), grade_one=grade_fake,
                             console=console, roster=roster, shard=shard)


def merge(toml, outs, to) -> int:
    return main(["merge", *map(str, outs), "--out", str(to), "--config", str(toml)])


@pytest.fixture
def klass(tmp_path):
    for i, s in enumerate(NAMES):
        submission(tmp_path / "class", s, fail=("mul",) if i % 3 == 0 else ())
    (tmp_path / "roster.csv").write_text("id\n" + "".join(f"{s}\n" for s in ROSTER))
    return tmp_path / "roster.csv"


@pytest.mark.parametrize("variants", [False, True], ids=["no-variants", "variants"])
def test_do_shards_graded_with_a_roster_merge_into_what_one_machine_writes_with_it(tmp_path, klass, variants, capsys):
    toml = course(tmp_path, variants)
    code = grade(tmp_path, toml, tmp_path / "one", roster=klass)
    outs = [tmp_path / f"shard-{i}" for i in (1, 2, 3)]
    for i, out in enumerate(outs, start=1):
        grade(tmp_path, toml, out, roster=klass, shard=f"{i}/3")
    capsys.readouterr()

    assert merge(toml, outs, tmp_path / "merged") == code

    said = " ".join(capsys.readouterr().out.split())
    assert "no submission (2 of 12 on the roster): bea, cyd" in said
    assert "not on the roster (2; " in said and "s010, s011" in said
    assert class_files(tmp_path / "merged") == class_files(tmp_path / "one")
    rows = {r["student"]: r for r in csv.DictReader((tmp_path / "merged" / "gradebook.csv").read_text().splitlines())}
    assert rows["bea"]["status"] == rows["cyd"]["status"] == "missing"
    assert rows["s010"]["status"] == rows["s011"]["status"] == "unrostered"
    assert rows["s010"]["error"].startswith("not graded: id s010 is not on the roster") == variants  # else graded
    summary = json.loads((tmp_path / "merged" / "summary.json").read_text())["roster"]
    assert summary["missing"] == ["bea", "cyd"] and summary["students"] == 12


def test_does_the_merge_refuse_shards_graded_with_another_roster_or_none_in_one_line(tmp_path, klass, capsys):
    toml = course(tmp_path, False)
    other = tmp_path / "other.csv"
    other.write_text("id\n" + "".join(f"{s}\n" for s in ROSTER[:-1]))
    grade(tmp_path, toml, tmp_path / "a1", roster=klass, shard="1/2")
    grade(tmp_path, toml, tmp_path / "b2", roster=other, shard="2/2")
    grade(tmp_path, toml, tmp_path / "c2", shard="2/2")
    capsys.readouterr()
    for second, says in ((tmp_path / "b2", "was graded with another roster than shard 1/2"),
                         (tmp_path / "c2", "was graded without --roster, shard 1/2")):
        assert merge(toml, [tmp_path / "a1", second], tmp_path / "m") == 2
        err = capsys.readouterr().err
        assert f"shard 2/2 ({second}) {says}" in err and "same --roster" in err and err.count("\n") == 1
    assert not (tmp_path / "m").exists()   # nothing written


def test_does_a_shard_resumed_without_the_roster_keep_the_one_it_was_given(tmp_path, klass, capsys):
    """The shard's folder remembers its roster, as one machine's does: the same command without --roster
    (a resume) still grades with it, and the merge still writes the missing rows."""
    toml = course(tmp_path, True)
    grade(tmp_path, toml, tmp_path / "one", roster=klass)
    outs = [tmp_path / f"shard-{i}" for i in (1, 2)]
    for i, out in enumerate(outs, start=1):
        grade(tmp_path, toml, out, roster=klass, shard=f"{i}/2")
        grade(tmp_path, toml, out, shard=f"{i}/2")
    merge(toml, outs, tmp_path / "merged")
    assert class_files(tmp_path / "merged") == class_files(tmp_path / "one")
