"""The Pythons a test can run the kit's student side with: the oldest the kit supports, where there is one."""
from __future__ import annotations

import os
from pathlib import Path


def oldest_python() -> str | None:
    """A Python 3.10 (pyproject: requires-python >=3.10; Ubuntu 22.04's, Gradescope's default image's),
    the system's or pyenv's, or None."""
    for path in (Path("/usr/bin/python3.10"), *sorted(Path("/root/.pyenv/versions").glob("3.10.*/bin/python3.10"))):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None
