"""The hostile corpus: its outcome table (score / honest score / sandbox / left behind) in the terminal summary,
when asked for (`-v`) or when a test failed."""
from __future__ import annotations

import pytest

SUMMARY_KEY = pytest.StashKey[dict]()


@pytest.fixture(scope="session")
def hostile_summary(request: pytest.FixtureRequest):
    """Tests call this with the level and the table text; every level's is printed in the terminal
    summary when asked for (-v) or when a test failed."""
    def record(level: str, text: str) -> None:
        tables = request.config.stash.get(SUMMARY_KEY, {})
        tables[level] = text
        request.config.stash[SUMMARY_KEY] = tables
    return record


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if config.get_verbosity() <= 0 and exitstatus == 0:  # asked for (-v), or a test failed
        return
    for level, text in config.stash.get(SUMMARY_KEY, {}).items():
        terminalreporter.section(f"hostile corpus: one batch, sandbox {level}")
        terminalreporter.write_line(text)
