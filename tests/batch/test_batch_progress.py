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

    def a_line(start: str) -> str:   # waits for it (a loaded machine may be slow to run the thread)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            found = [line for line in out.getvalue().splitlines() if line.startswith(start)]
            if found:
                return found[0]
            time.sleep(0.02)
        return ""

    with progress_bar(4, 1, console=Console(file=out, force_terminal=False), every=0.1) as advance:
        first = a_line("grading: ")            # nothing done yet: a line all the same, with no estimate
        advance("ana")
        later = a_line("grading: 2 of 4")
    assert first.startswith("grading: 1 of 4 done (1 from before), ") and "left" not in first
    assert later.startswith("grading: 2 of 4 done (1 from before), ") and later.endswith(" left") and "about" in later
    assert out.getvalue().splitlines()[-1].startswith("grading: 2 of 4 done")


def test_does_a_short_run_off_a_terminal_or_one_without_progress_say_nothing():
    out = io.StringIO()
    with progress_bar(3, console=Console(file=out, force_terminal=False), every=5) as advance:
        advance("ana")
    with progress_bar(3, console=Console(file=out, force_terminal=True), enabled=False) as advance:
        advance("ana")
    assert out.getvalue() == ""
