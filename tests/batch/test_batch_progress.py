"""Is there a progress bar with an ETA on a terminal, and silence everywhere else?"""
from __future__ import annotations

import io

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


def test_a_pipe_or_log_gets_nothing():
    out = io.StringIO()
    with progress_bar(3, console=Console(file=out, force_terminal=False)) as advance:
        advance("ana")
    with progress_bar(3, console=Console(file=out, force_terminal=True), enabled=False) as advance:
        advance("ana")
    assert out.getvalue() == ""
