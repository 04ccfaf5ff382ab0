"""Does a child the zygote forks go without a home in the temporary folder (its /tmp is a fresh tmpfs), and does
a child that starts the plain bubblewrap way after all still get one, removed after it?
Real bwrap, real namespaces: skipped where the bubblewrap level has no zygote (not root, no setpriv)."""
from __future__ import annotations

import os

import pytest

from autograder import scratch
from autograder.runner import run_cases
from autograder.runner.levels.zygote.level import ZygoteLevel
from autograder.runner.levels.zygote.zygote import ZygoteFailed
from forked import LIMITS, student, zygote_level

pytestmark = pytest.mark.usefixtures("bubblewrap")
LOOK = "import os\nprint('files', sorted(os.listdir('/submission')), 'tmp', sorted(os.listdir('/tmp')))\n"


@pytest.fixture
def made(monkeypatch):
    """The prefixes of the kit's folders made in the temporary folder from now on (scratch.make)."""
    prefixes = []
    real = scratch.make
    monkeypatch.setattr(scratch, "make", lambda prefix, *a, **k: prefixes.append(prefix) or real(prefix, *a, **k))
    return prefixes


def test_is_no_home_made_for_a_child_the_zygote_forks(tmp_path, made):
    level = zygote_level()
    root = student(tmp_path, "student", LOOK)
    run_cases(root, [], limits=LIMITS)  # the zygote started (its staging folder made), if it was not yet
    made.clear()
    count = sum(z.count for z in level.zygotes.values())
    run = run_cases(root, [], limits=LIMITS)
    assert sum(z.count for z in level.zygotes.values()) == count + 1, "not forked by the zygote"
    assert "files ['micrograd'] tmp []" in run.imports.output, run.imports.output
    assert made == [], "a folder in the temporary folder for a child that has a fresh /tmp of its own"
    staged = [name for z in level.zygotes.values() for name in os.listdir(z.staging) if name != scratch.HELD]
    assert staged == [], "the staged copy is removed once the child has ended"


def test_does_a_child_started_by_bwrap_after_all_get_a_home_removed_after_it(tmp_path, made, monkeypatch):
    """Where the zygote can't fork a submission's sandbox, the child starts the plain bubblewrap way: with a
    home of its own (bwrap binds it), gone once the child has ended."""
    zygote_level()

    def refused(*args, **kwargs):
        raise ZygoteFailed("the zygote could not make a sandbox (a test)")

    monkeypatch.setattr(ZygoteLevel, "_fork", staticmethod(refused))
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    run = run_cases(student(tmp_path, "student", LOOK), [], limits=LIMITS)
    assert run.sandbox == "bubblewrap" and "files ['micrograd']" in run.imports.output, run.imports.output
    assert "backprop-child-" in made
    assert [name for name in os.listdir(tmp_path) if name.startswith("backprop-child-")] == []
