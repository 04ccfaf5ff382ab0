"""Does a batch draw its histogram without matplotlib, in the grading process, with no process or thread of
its own for it? (Pillow draws it in ~25 ms: report/histogram.py.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = """
import sys, threading
from pathlib import Path
from autograder.batch.run import grade_batch
from autograder.config import Rubric
from batch_fakes import entry, grade_fake, submission

root = Path(sys.argv[1])
entries = [entry(s, submission(root / "in", s, fail=("mul",) if i % 2 else ()))
           for i, s in enumerate(["ana", "ben", "cai"])]
grade_batch(entries, root / "out", rubric=Rubric(hidden_seed=42), grade_one=grade_fake, progress=False, workers=2)
print(sorted({m.partition(".")[0] for m in sys.modules} & {"matplotlib", "PIL"}))
print(sorted(t.name for t in threading.enumerate() if t is not threading.main_thread()))
"""


def test_is_the_histogram_drawn_without_matplotlib_or_a_thread_of_its_own(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parents[1]), str(HERE)])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=HERE.parents[1], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    modules, threads = done.stdout.splitlines()[-2:]
    assert modules == "['PIL']" and threads == "[]", done.stdout
    assert (tmp_path / "out" / "score_histogram.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
