"""Fixtures for the batch tests."""
from __future__ import annotations

import gc
import signal

import pytest


@pytest.fixture
def ctrl_c_at_a_terminal():
    """Ctrl-C raises KeyboardInterrupt, as in a shell at a terminal, whatever started the tests: a background
    job of a script (nohup, `&`, some CI runners) starts with SIGINT ignored, and then the kit rightly
    ignores it too (batch/pool.py re-raises only through the handler it found).

    And no garbage collector callback meanwhile: hypothesis, once one of its tests has run in this test
    process, keeps one, and a KeyboardInterrupt that lands while it runs is printed and swallowed (seen at a
    test process's end in a CI-like run), and the kit would never see the Ctrl-C the test sends. The kit's own processes have none."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    try:
        yield
    finally:
        gc.callbacks[:] = callbacks
        signal.signal(signal.SIGINT, before)
