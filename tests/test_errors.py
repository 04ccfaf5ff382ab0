"""Does every way a command can end have one name and one exit code, and does a kit bug differ from a user's mistake?"""
from __future__ import annotations

import pytest

from autograder import cli, grading
from autograder.batch.run import BatchInputError
from autograder.batch.store import StoreError
from autograder.config import ConfigError
from autograder.errors import ExitCode, KitError, UserError
from autograder.exercises import MarkerError
from autograder.handout.write import HandoutError
from autograder.paths import KIT_ROOT
from autograder.runner.levels import SandboxUnavailable


def test_are_the_exit_codes_the_documented_ones():
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3, 130]
    readme = (KIT_ROOT / "README.md").read_text()
    for code in ExitCode:
        assert f"`{int(code)}`" in readme, f"README does not list exit code {int(code)}"


@pytest.mark.parametrize("error", [ConfigError, SandboxUnavailable, HandoutError, MarkerError, StoreError,
                                   BatchInputError, cli.UsageError])
def test_is_every_users_mistake_a_user_error(error):
    assert issubclass(error, UserError)


@pytest.mark.parametrize("raised, code", [(ConfigError("assignment.toml: bad"), 2), (KitError("torch disagrees"), 3)])
def test_does_the_cli_tell_a_kit_bug_from_a_users_mistake(monkeypatch, capsys, raised, code):
    def fail(*args, **kwargs):
        raise raised
    monkeypatch.setattr(grading, "grade_path", fail)
    assert cli.main(["check", str(KIT_ROOT / "solutions")]) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(raised) in err
    assert ("internal error of the kit" in err) == (code == ExitCode.KIT_BUG)
