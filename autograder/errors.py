"""The kit's vocabulary for how a command ends: one name per outcome, used everywhere.

A mistake of the user's (a bad flag, a rubric that can't work, an output folder in
use, a broken marker) is a UserError: one line on stderr, exit 2. A bug of the
kit's own (reference and torch disagreeing, goldens missing from a handout) is a
KitError: one line that says so, and its own exit code, so that a script can tell
"you asked for something wrong" from "the kit is broken".
"""
from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0               # everything passed; for a class, every submission graded
    FAILED = 1           # something failed, or a submission could not be graded
    USAGE_ERROR = 2      # a user's mistake: bad flag, input or rubric (a UserError)
    KIT_BUG = 3          # the kit itself is wrong (a KitError): please report it
    INTERRUPTED = 130    # Ctrl-C; what was done is kept


class UserError(Exception):
    """A mistake the user can fix: its message is one line saying what and how."""


class KitError(RuntimeError):
    """The kit itself is wrong (reference and torch disagree, a golden is not a number)."""
