"""The hostile corpus: its outcome table (score / honest score / sandbox / left behind) in the terminal summary,
when asked for (`-v`) or when a test failed."""
from __future__ import annotations

import pytest

SUMMARY_KEY = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def hostile_summary(request: pytest.FixtureRequest):
    """Tests call this with the table text; it is printed in the terminal summary, pass or fail."""
    def record(text: str) -> None:
        request.config.stash[SUMMARY_KEY] = text
    return record


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    text = config.stash.get(SUMMARY_KEY, None)
    if text and (config.get_verbosity() > 0 or exitstatus != 0):
        terminalreporter.section("hostile corpus: one batch")
        terminalreporter.write_line(text)
