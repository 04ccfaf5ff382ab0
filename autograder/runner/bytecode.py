"""The child's own code compiled once by the grading process, not by every child.

The child runs its modules (autograder/child/, the case programs) from folders it can only read
(bubblewrap's read-only binds, the uid level's copies), so it can't write their bytecode: without
a __pycache__ beside them every child compiles them afresh (about 20 ms of CPU each, twice what
importing them costs). The grading process, running the same interpreter, writes them once; a
folder it can't write to (an installation owned by another user) is left as it is.
"""
from __future__ import annotations

import compileall
import functools
import os


@functools.lru_cache(maxsize=None)
def compile_once(folder: str) -> bool:
    """Write the bytecode of every module under folder (the usual checks: only what is stale);
    once per process and folder. False if some of it could not be written."""
    if not os.path.isdir(folder):
        return False
    try:
        return bool(compileall.compile_dir(folder, quiet=2, workers=1))
    except OSError:
        return False
