"""The forms of `check` a student types most, read without argparse: `autograder check` and `autograder
check PATH`. Importing argparse and building the check's parser cost about 5 ms of a check's CPU; these two
forms need neither. They give the very Namespace the check's parser gives (tests/cli/test_check_start.py
compares the two); any other form (a flag, `--help`, a second path, a word starting with "-") goes to the parser.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Callable


def plain_check(words: list[str], run: Callable) -> SimpleNamespace | None:
    """The arguments of `check` or `check PATH` as the check's parser reads them, or None for any other form."""
    if not words or words[0] != "check" or len(words) > 2 or any(w.startswith("-") for w in words[1:]):
        return None
    return SimpleNamespace(command="check", path=Path(words[1] if len(words) == 2 else "."), task=None, student=None,
                           format="text", config=None, verbose=False, graph=None, run=run, include_hidden=False)
