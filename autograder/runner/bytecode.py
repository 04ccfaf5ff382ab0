"""The child's own code compiled once by the grading process, not by every child.

The child runs its modules (autograder/child/, the case programs) from folders it can only read
(bubblewrap's read-only binds, the uid level's copies), so it can't write their bytecode: without
a __pycache__ beside them every child compiles them afresh (about 20 ms of CPU each, twice what
importing them costs). The grading process, running the same interpreter, writes them once; a
folder it can't write to (an installation owned by another user) is left as it is.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import struct


@functools.lru_cache(maxsize=None)
def compile_once(folder: str) -> bool:
    """Write the bytecode of every module under folder (the usual checks: only what is stale);
    once per process and folder. False if some of it could not be written."""
    if not os.path.isdir(folder):
        return False
    if _all_fresh(folder):  # the usual case: compileall (and the traceback it imports) not even imported
        return True
    import compileall

    try:
        return bool(compileall.compile_dir(folder, quiet=2, workers=1))
    except OSError:
        return False


def _all_fresh(folder: str) -> bool:
    """Whether every module under folder has bytecode of this interpreter matching its source's mtime
    and size (the header compileall and the import system check)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if not name.endswith(".py"):
                continue
            source = os.path.join(root, name)
            try:
                st = os.stat(source)
                with open(importlib.util.cache_from_source(source), "rb") as f:
                    header = f.read(16)
            except OSError:
                return False
            if len(header) < 16 or header[:4] != importlib.util.MAGIC_NUMBER or header[4:8] != bytes(4) or \
                    struct.unpack("<II", header[8:16]) != (int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF):
                return False
    return True
