"""Each sandbox level's tests, in a folder of its own (bwrap/, uid/, zygote/; the chooser and what every level
holds here): they share the runner's helpers (tests/runner/test_session.py) and this folder's
(test_sandbox_levels.py), imported by name as the runner's own tests import them."""
import sys
from pathlib import Path

for folder in (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
