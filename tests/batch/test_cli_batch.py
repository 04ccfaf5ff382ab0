"""Does `grade PATH... --out DIR` exit 0 / 1 / 2 as promised and say where the files went?"""
from __future__ import annotations

from rich.console import Console

from autograder.cli.batch import run_batch_command
from autograder.config import Rubric
from batch_fakes import grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)


def command(paths, out, **kw):
    console = Console(width=200, highlight=False, force_terminal=False)
    return run_batch_command(paths, out, kw.pop("workers", 2), kw.pop("regrade", False), RUBRIC,
                             grade_one=grade_fake, console=console)


def test_exit_0_when_every_submission_is_graded_even_if_students_failed(tmp_path, capsys):
    submission(tmp_path / "class", "ana")
    submission(tmp_path / "class", "ben", fail=("mul", "backward"))
    assert command([tmp_path / "class"], tmp_path / "out") == 0
    out = capsys.readouterr().out
    assert "Class summary" in out and "mul" in out and "50%" in out
    # ben's two failing tasks were each named a classic mistake: the terminal says what to reteach
    assert "What to reteach" in out
    assert "mul: 1 student overwrite" in " ".join(out.split()) and "backward: 1 student" in out
    assert f"Wrote gradebook to {tmp_path / 'out' / 'gradebook.csv'}" in " ".join(out.split())
    assert (tmp_path / "out" / "feedback" / "ben.html").is_file()


def test_exit_1_when_a_submission_could_not_be_graded(tmp_path, capsys):
    submission(tmp_path / "class", "ana")
    submission(tmp_path / "class", "ben", do="raise", message="disk on fire")
    assert command([tmp_path / "class"], tmp_path / "out") == 1
    out = capsys.readouterr().out
    assert "could not grade ben: grading crashed: RuntimeError: disk on fire" in out
    assert "run the same command again to retry" in out


def test_exit_2_for_bad_input(tmp_path, capsys):
    submission(tmp_path / "class", "ana")
    (tmp_path / "afile").write_text("")
    assert command([tmp_path / "class"], tmp_path / "afile") == 2
    assert "is a file" in capsys.readouterr().err
    assert command([tmp_path / "nothing-here"], tmp_path / "out") == 2
    assert "no submissions found" in capsys.readouterr().err
    assert command([tmp_path / "class"], tmp_path / "out", workers=0) == 2


def test_is_a_file_that_fits_no_layout_listed_in_the_summary_not_lost(tmp_path, capsys):
    """A renamed file in a Canvas download: a note on the terminal and a line in summary.md/.json."""
    import json

    dl = tmp_path / "dl"
    dl.mkdir()
    for name in ("ann_1030_5030_engine.py", "bo_1040_5040_engine.py", "obrien-smith_LATE_1010_5010_engine.py"):
        (dl / name).write_text("x = 1\n")
    command([dl], tmp_path / "out")  # the fake grader cannot read these files: only the intake matters here
    assert "obrien-smith_LATE_1010_5010_engine.py: not graded" in " ".join(capsys.readouterr().err.split())
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["submissions"] == 2
    assert any("obrien-smith" in line and "not graded" in line for line in summary["intake"])
    assert "obrien-smith_LATE_1010_5010_engine.py" in (tmp_path / "out" / "summary.md").read_text()


def test_does_a_reused_out_say_whose_files_it_removed_and_which_it_kept(tmp_path, capsys):
    submission(tmp_path / "class", "ana")
    submission(tmp_path / "class", "ben")
    command([tmp_path / "class"], tmp_path / "out")
    (tmp_path / "out" / "feedback" / "extra.html").write_text("a TA's page")
    submission(tmp_path / "class2", "ana")
    submission(tmp_path / "class2", "cai")   # another class (a part of the last one would update it in place)
    capsys.readouterr()
    assert command([tmp_path / "class2"], tmp_path / "out") == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Removed the reports and feedback pages of 1 student(s) graded here before and not in this run: ben" in out
    assert "note: kept 1 file(s) in reports/ and feedback/ that are of no student in this run" in out
    assert "feedback/extra.html" in out


def test_does_a_roster_name_its_missing_and_unrostered_students_and_refuse_a_bad_one_in_one_line(tmp_path, capsys):
    submission(tmp_path / "class", "ana")
    submission(tmp_path / "class", "zed")
    (tmp_path / "roster.csv").write_text("id\nana\nbea\n")
    console = Console(width=200, highlight=False, force_terminal=False)
    assert run_batch_command([tmp_path / "class"], tmp_path / "out", 2, False, RUBRIC, grade_one=grade_fake,
                             console=console, roster=tmp_path / "roster.csv") == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "not on the roster (1; graded, and named): zed" in out
    assert "no submission (1 of 2 on the roster): bea" in out
    (tmp_path / "bad.csv").write_text("name\nana\n")
    for shard in (None, "1/2"):
        assert run_batch_command([tmp_path / "class"], tmp_path / "out2", 2, False, RUBRIC, grade_one=grade_fake,
                                 console=console, roster=tmp_path / "bad.csv", shard=shard) == 2
        err = capsys.readouterr().err
        assert "an `id` column" in err and err.count("\n") == 1
