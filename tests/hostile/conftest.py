"""The hostile corpus: its outcome table (score / honest score / sandbox / left behind) in the terminal summary."""
from __future__ import annotations

import pytest

SUMMARY_KEY = pytest.StashKey[dict]()


@pytest.fixture(scope="session")
def hostile_summary(request: pytest.FixtureRequest):
    """Tests call this with the level and the table text; every level's is printed in the terminal
    summary, pass or fail."""
    def record(level: str, text: str) -> None:
        tables = request.config.stash.get(SUMMARY_KEY, {})
        tables[level] = text
        request.config.stash[SUMMARY_KEY] = tables
    return record


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    for level, text in config.stash.get(SUMMARY_KEY, {}).items():
        terminalreporter.section(f"hostile corpus: one batch, sandbox {level}")
        terminalreporter.write_line(text)
