"""Does a student's check load only what a check needs (issue 32: a check under 0.15 s), and say the
same as before: the instructors' commands' modules, the other sandbox levels, compileall, what only a failing
task, a zip, a variant or a mistake said needs, and the heavy libraries of other outputs left out?"""
import subprocess
import sys

import pytest

from autograder.paths import KIT_ROOT

# what a check never needs: the LMS and batch modules behind `lms` and `merge`'s parsers, and compileall
# (the child's bytecode is fresh after the first run)
NEVER = ("autograder.lms", "autograder.cli.lms", "autograder.cli.merge", "autograder.batch", "compileall")
# what a passing check of a folder never needs: the diagnosis and its repairs (LibCST), forensics, a variant's
# signature, the pages (jinja2), torch, zipfile (a .zip's), multiprocessing (a pool's), the mistakes said, and
# rich (report/terminal_plain.py writes what rich would, on a terminal too: tests/report/test_terminal_plain.py)
PASSING_NEVER = ("torch", "jinja2", "libcst", "autograder.diagnosis", "autograder.report.html_report",
                 "autograder.report.json_report", "autograder.variants.forensics", "autograder.variants.signature",
                 "autograder.cli.mistakes", "zipfile", "multiprocessing", "cryptography", "rich")


def modules_after(*argv: str) -> set[str]:
    code = ("import sys; from autograder.cli import main; sys.stdout = open('/dev/null', 'w'); "
            f"code = main({list(argv)!r}); sys.stdout = sys.__stdout__; "
            "print(' '.join(sorted(sys.modules)))")
    subprocess.run([sys.executable, "-m", "autograder", *argv], cwd=KIT_ROOT, capture_output=True, timeout=300)
    done = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_does_a_check_import_nothing_of_the_instructors_commands():
    loaded = modules_after("check", "solutions")
    assert "autograder.grading" in loaded  # it did check
    assert [m for m in loaded if m.startswith(NEVER)] == []


def test_does_a_passing_check_import_none_of_what_only_failures_and_other_outputs_need():
    loaded = modules_after("check", "solutions")
    assert "autograder.grading" in loaded and "autograder.report.text" in loaded  # it did check, and said so
    assert [m for m in loaded if m.split(".")[0] in PASSING_NEVER or m.startswith(PASSING_NEVER)] == []


def test_does_the_parser_of_a_check_hold_the_check_alone():
    """The parser is built for the command asked for (the others cost their build); every command's parser
    for the top-level help and an unknown command (the tests below)."""
    from autograder.cli import _parser

    assert list(_parser("check").commands) == ["check"]
    assert list(_parser(None).commands) == ["exercises", "check", "grade", "handout", "export", "merge", "lms"]


def test_does_the_top_level_help_still_say_what_merge_and_lms_do():
    done = subprocess.run([sys.executable, "-m", "autograder", "--help"], cwd=KIT_ROOT, capture_output=True,
                          text=True, timeout=60)
    assert "join the --out folders" in done.stdout and "grades for Canvas or Moodle" in done.stdout


def test_does_an_unknown_command_list_every_command():
    done = subprocess.run([sys.executable, "-m", "autograder", "chek"], cwd=KIT_ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    for command in ("check", "grade", "merge", "lms", "export"):
        assert repr(command) in done.stderr


@pytest.mark.parametrize("words", [["check"], ["check", "solutions"], ["check", "my work.zip"], ["check", "a=b"],
                                   ["check", ""]])
def test_does_a_plain_check_read_its_arguments_as_the_parser_does(words):
    """`check` and `check PATH` are read without argparse (cli/plain.py): the same arguments as the parser's."""
    from autograder.cli import _check, _parser
    from autograder.cli.plain import plain_check

    parsed, extra = _parser("check").parse_known_args(words)
    assert extra == [] and vars(plain_check(words, _check)) == vars(parsed)


@pytest.mark.parametrize("words", [[], ["check", "-v"], ["check", "--help"], ["check", "a", "b"], ["check", "--"],
                                   ["check", "--task", "mul"], ["grade", "x"], ["checks"]])
def test_does_every_other_form_go_to_the_parser(words):
    from autograder.cli import _check
    from autograder.cli.plain import plain_check

    assert plain_check(words, _check) is None


def test_does_a_plain_check_import_no_argparse():
    loaded = modules_after("check", "solutions")
    assert "autograder.grading" in loaded and "argparse" not in loaded


def test_does_the_way_to_the_zygotes_start_leave_the_sessions_modules_for_later():
    """runner/warm.py starts the zygote before grading imports the session (runner/__init__ hands run_cases out
    when asked for): what the zygote's start imports is all a check waits for before its sandbox boots."""
    code = ("import sys, autograder.runner.warm; import autograder.runner as r; before = set(sys.modules); "
            "r.run_cases, r.Limits, r.RunResult; "
            "print('autograder.runner.session' in before, 'autograder.runner.session' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
