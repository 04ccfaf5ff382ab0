"""Does the report written without rich (off a terminal, report/terminal_plain.py) read exactly as rich writes it
there, for every report it takes, and leave to rich every report it can't write so?"""
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape as rich_escape, render

from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.paths import KIT_ROOT
from autograder.report import terminal_markup, terminal_plain
from autograder.report.inert import inert
from autograder.report.model import CaseResult, Report, TaskResult
from autograder.report.text import plain_text, print_report
from test_every_report_renders import reports

WIDTHS = (20, 27, 40, 60, 72, 80, 100, 200)


def rich_text(report: Report, width: int, verbose: bool, colours: str | None = None) -> str:
    out = io.StringIO()  # the console print_report makes, off a terminal of this width or (colours) on one
    console = Console(file=out, width=width, highlight=False, emoji=False, force_terminal=colours is not None,
                      color_system=colours)
    print_report(report, console, verbose=verbose)
    return out.getvalue()


def same_as_rich(report: Report) -> int:
    """How many (width, verbose, colours) the plain writer took; each one equal to rich's, byte for byte."""
    taken = 0
    for width in WIDTHS:
        for verbose in (False, True):
            for colours in (None, "standard", "256", "truecolor"):
                text = plain_text(report, width, colours is not None, verbose=verbose)
                if text is not None:
                    assert text == rich_text(report, width, verbose, colours), (width, verbose, colours)
                    taken += 1
    return taken


words = st.sampled_from(["a", "the", "_backward", "Value.backward():", "[bold]x[/bold]", "\\[red]", "C:\\", "✓",
                         "…", "—", "ünï", "⏱", "\t", "x" * 30, "(a", "b)", "[/]", "\\"])
titles = st.lists(words, max_size=12).map(" ".join)


@st.composite
def plain_reports(draw):
    """Reports of the kit's own shape: task titles of words (some of them long), cases that print and fail."""
    tasks = []
    for task in draw(st.lists(st.sampled_from(["add", "mul", "backward", "mlp", "train"]), unique=True, max_size=5)):
        cases = tuple(CaseResult(f"{task}/{n}", draw(st.sampled_from(["passed", "failed", "error", "missing"])),
                                 title=draw(titles), message=draw(titles), details=(draw(titles),),
                                 output=draw(titles)) for n in range(draw(st.integers(0, 3))))
        tasks.append(TaskResult(task, draw(titles), 5.0 * sum(c.status == "passed" for c in cases) / max(len(cases), 1),
                                5.0, cases))
    return Report(draw(st.sampled_from(["solutions", "my work.zip", "[x]"])), sum(t.score for t in tasks),
                  5.0 * len(tasks), tuple(tasks), notes=tuple(draw(st.lists(titles, max_size=2))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_reports())
def test_is_every_report_of_the_kits_shape_written_as_rich_writes_it(report):
    same_as_rich(report)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_is_every_generated_report_written_as_rich_writes_it(report):
    same_as_rich(report)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_does_student_text_escape_and_read_back_as_rich_s_markup_reads(text):
    text = inert(text)  # as the report shows any text (no control character: rich drops those)
    assert terminal_markup.escape(text) == rich_escape(text)
    for markup in (rich_escape(text), f"[bold]{rich_escape(text)}[/bold] — [dim]{rich_escape(text)}[/dim]", text):
        try:
            shown = render(markup).plain
        except MarkupError:  # text that is not escaped may be no markup at all (the kit escapes all it shows)
            continue
        assert terminal_markup.plain(markup) == shown


@pytest.fixture(scope="module")
def graded():
    rubric = load_rubric(KIT_ROOT / "assignment.toml")
    folder = KIT_ROOT / "examples" / "submissions"
    return [grade_path(KIT_ROOT / "solutions", rubric=rubric, include_hidden=False)] + [
        grade_path(folder / name, rubric=rubric, include_hidden=False)
        for name in ("ada_lovelace", "barbara_liskov.zip", "grace_hopper.py", "katherine_johnson")]


def test_are_graded_reports_written_as_rich_writes_them_and_without_rich_at_80_columns(graded):
    """The solutions' report and failing ones: taken at the width rich takes off a terminal (80), and equal."""
    for report in graded:
        report = report.without_sandbox_notes()
        assert same_as_rich(report) >= 1
        assert plain_text(report, 80) is not None and plain_text(report, 80, True) is not None, report.submission


def check(env: dict, *, terminal: bool) -> tuple[str, str]:
    """`python -m autograder check solutions` (the student's command, ending as it ends: cli/leave.py), its stdout
    a pipe or a terminal: (its stdout, whether it imported rich)."""
    code = [sys.executable, "-X", "importtime", "-m", "autograder", "check", "solutions"]
    if not terminal:
        done = subprocess.run(code, cwd=KIT_ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
        return done.stdout, f"RICH {' rich.console' in done.stderr}"
    import pty

    main, side = pty.openpty()
    os.set_blocking(main, True)
    proc = subprocess.Popen(code, cwd=KIT_ROOT, env=env, stdout=side,
                            stderr=subprocess.PIPE, text=True)
    os.close(side)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    _, err = proc.communicate(timeout=120)
    os.close(main)
    return b"".join(chunks).decode(), f"RICH {' rich.console' in err}"


def test_does_a_check_write_what_rich_writes_off_a_terminal_and_on_one_without_importing_it():
    """The student's command end to end, its stdout a pipe and a terminal: the same bytes as rich writes (rich asked
    by TTY_INTERACTIVE, which changes nothing rich prints but sends the report to rich), without rich."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                                                            "COLUMNS", "NO_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    for terminal in (False, True):
        written, imported = check(env, terminal=terminal)
        by_rich, imported_by_rich = check({**env, "TTY_INTERACTIVE": "1"}, terminal=terminal)
        assert "RICH False" in imported and "RICH True" in imported_by_rich
        assert "Score: 100 / 100" in written and written == by_rich
        assert ("\x1b[1m" in written) == terminal
    forced, imported = check({**env, "FORCE_COLOR": "1"}, terminal=False)  # rich's colours asked for off a terminal
    assert "RICH True" in imported and "\x1b[" in forced
    narrow, _ = check({**env, "COLUMNS": "50"}, terminal=False)
    assert max(map(len, narrow.splitlines())) <= 50


def test_is_anything_else_rich_prints_left_to_rich():
    """A renderable, an option or a method of rich's Console the plain writer does not write: DoesNotFit."""
    from rich.panel import Panel

    plain = terminal_plain.PlainConsole(80)
    for call in (lambda: plain.print(Panel("x")), lambda: plain.print("x", style="bold"), lambda: plain.rule("x")):
        with pytest.raises(terminal_markup.DoesNotFit):
            call()
    plain.print("[bold]x[/bold]", soft_wrap=True, highlight=False)
    assert plain.text() == "x\n"


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_does_a_check_into_a_closed_pipe_end_as_rich_ends_it(unbuffered):
    """`check | true`: rich's Console ends the command with 1 and says nothing (its on_broken_pipe); so does the
    report written without it (a traceback with PYTHONUNBUFFERED, exit 120 without, before)."""
    read, write = os.pipe()
    os.close(read)
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    done = subprocess.run([sys.executable, "-m", "autograder", "check", "solutions"], cwd=KIT_ROOT, env=env,
                          stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(write)
    assert (done.returncode, done.stderr) == (1, "")
