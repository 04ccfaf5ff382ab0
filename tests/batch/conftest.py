"""Fixtures for the batch tests."""
from __future__ import annotations

import signal

import pytest


@pytest.fixture
def ctrl_c_at_a_terminal():
    """Ctrl-C raises KeyboardInterrupt, as in a shell at a terminal, whatever started the tests: a background
    job of a script (nohup, `&`, some CI runners) starts with SIGINT ignored, and then the kit rightly
    ignores it too (batch/pool.py re-raises only through the handler it found)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
