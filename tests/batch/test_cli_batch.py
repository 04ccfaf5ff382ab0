"""Does `grade PATH... --out DIR` exit 0 / 1 / 2 as promised and say where the files went?"""
from __future__ import annotations

from rich.console import Console

from autograder.batch.cli_batch import run_batch_command
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
