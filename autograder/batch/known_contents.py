"""A submission file's content digest (keys.py), remembered by the store with the file's stat, so a rerun
decides which submissions are unchanged without reading every file of the class again.

A file's digest is taken from the store when the file's stat (inode, size, modification and change times,
in nanoseconds) is the one recorded with it. Any write to the file, or replacing it, changes its change
time, which no user can set back; a file changed within the last RACY_SECONDS when it was read is not
remembered (a write in the same clock tick would leave its stat as it was). A folder (a submission of
several files) is read again on every run: its own stat does not change when a file deep inside does.
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Sequence

from autograder.batch.keys import content_digest
from autograder.batch.store import Store

RACY_SECONDS = 2


def content_digests(paths: Sequence[Path], store: Store) -> list[str]:
    """content_digest of each path, from the store where the file is as it was recorded; the store then
    remembers exactly these paths' digests (committed)."""
    digests, remembered = [], []
    now = time.time_ns()
    for path in map(Path, paths):
        try:
            st = os.lstat(path)
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            digests.append(content_digest(path))
            continue
        stamp = f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
        found = store.content(str(path))
        if found is not None and found[0] == stamp:
            digests.append(found[1])
            remembered.append((str(path), stamp, found[1]))
            continue
        digest = content_digest(path)
        digests.append(digest)
        if now - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_SECONDS * 1_000_000_000:
            remembered.append((str(path), stamp, digest))
    store.remember_contents(remembered)
    return digests
