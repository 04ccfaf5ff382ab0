"""Is there a progress bar with an ETA on a terminal, and a line every few seconds everywhere else?"""
from __future__ import annotations

import io
import time

from rich.console import Console

from autograder.batch.progress import progress_bar


def test_a_terminal_gets_a_bar_with_counts_and_an_eta():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress_bar(3, 1, console=console) as advance:
        advance("ana")
        advance("[bold]ben")
    text = out.getvalue()
    assert "3/3" in text and "ETA" in text
    assert "[bold]ben" in text, "a student id is shown as text, not read as markup"


def test_does_a_pipe_or_log_get_a_line_every_few_seconds_with_counts_and_an_estimate():
    """Lines come while nothing finishes too (a slow submission), and say how many are done and what is left."""
    out = io.StringIO()
    with progress_bar(4, 1, console=Console(file=out, force_terminal=False), every=0.2) as advance:
        time.sleep(0.5)                          # nothing done yet: lines all the same, with no estimate
        advance("ana")
        time.sleep(0.5)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("grading: 1 of 4 done (1 from before), ") and "left" not in lines[0]
    assert lines[-1].startswith("grading: 2 of 4 done") and lines[-1].endswith(" left")
    assert "about" in lines[-1] and len(lines) >= 3


def test_does_a_short_run_off_a_terminal_or_one_without_progress_say_nothing():
    out = io.StringIO()
    with progress_bar(3, console=Console(file=out, force_terminal=False), every=5) as advance:
        advance("ana")
    with progress_bar(3, console=Console(file=out, force_terminal=True), enabled=False) as advance:
        advance("ana")
    assert out.getvalue() == ""
