"""The zygote's tests: real bwrap, real namespaces, skipped where the bubblewrap level has no zygote (not root,
no setpriv). Their shared helpers are forked.py's, imported by name (this folder is put on the path here)."""
import sys
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def bubblewrap(monkeypatch):
    """The bubblewrap level with its zygote, whatever the environment chose."""
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "bubblewrap")
    monkeypatch.delenv("AUTOGRADER_ZYGOTE", raising=False)
