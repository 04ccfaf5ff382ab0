"""Where discovery assembles submissions (Canvas groups) and opens LMS zips."""
from __future__ import annotations

import tempfile
from pathlib import Path

from autograder.batch.unzip import fresh_dir


class Workspace:
    """Folders for assembled submissions, under <workdir>/intake (made afresh on first use).

    Without a workdir, a temporary folder is made on first use; Discovery.workdir says where.
    """

    def __init__(self, root: Path | None):
        self.root = Path(root) if root is not None else None
        self._intake: Path | None = None

    def new(self, label: str) -> Path:
        if self._intake is None:
            if self.root is None:
                self.root = Path(tempfile.mkdtemp(prefix="autograder-intake-"))
            self._intake = fresh_dir(self.root / "intake")
        path, n = self._intake / label, 1
        while path.exists():
            n += 1
            path = self._intake / f"{label}-{n}"
        path.mkdir(parents=True)
        return path

    @property
    def used(self) -> bool:
        return self._intake is not None
