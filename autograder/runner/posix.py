"""Where student code can run: a POSIX system (Linux; macOS with the basic level).

The child is a separate process with its own file descriptors, rlimits and session: none of
that exists on Windows, where the runner's modules would fail to import (no `resource`). This
module imports nothing the runner needs, so runner/__init__.py asks it first and a Windows user
gets one line saying what to do, never a traceback.
"""
from __future__ import annotations

import os
import sys

from autograder.errors import UserError

NOT_ON_WINDOWS = ("the autograder runs your code in a sandboxed child process, which needs Linux or macOS: on "
                  "Windows, install WSL (`wsl --install` in PowerShell), open Ubuntu, and run the same commands there")


class UnsupportedPlatform(UserError):
    pass


def require_posix() -> None:
    if sys.platform == "win32" or os.name != "posix":
        raise UnsupportedPlatform(NOT_ON_WINDOWS)
