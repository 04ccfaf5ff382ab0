"""Can two grade runs write the same --out at once? (No: the second is told, and nothing is mixed.)"""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.batch.lock import LOCK_NAME, hold_output
from autograder.batch.run import BatchInputError, grade_batch
from autograder.config import Rubric
from batch_fakes import entry, grade_fake, submission

RUBRIC = Rubric(hidden_seed=42)

HOLD = """
import sys, time
from pathlib import Path
from autograder.batch.lock import hold_output
with hold_output(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def _holder(out: Path) -> subprocess.Popen:
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_is_a_second_run_on_the_same_out_refused_with_one_line(tmp_path):
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        with pytest.raises(BatchInputError, match="another grade run is writing to"):
            grade_batch([entry("ana", submission(tmp_path / "in", "ana", do="ok", log=tmp_path / "log"))], out,
                        rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=1)
        assert not (out / "gradebook.csv").exists(), "the refused run wrote nothing"
    finally:
        holder.kill()
        holder.wait()


def test_does_the_cli_say_so_and_exit_2(tmp_path):
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(tmp_path), "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 2, done.stderr
    assert "another grade run is writing to" in done.stderr and "Traceback" not in done.stderr


def test_does_a_killed_run_leave_no_stale_lock(tmp_path):
    out = tmp_path / "out"
    holder = _holder(out)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert (out / LOCK_NAME).exists()  # the file stays; the lock went with the process
    with hold_output(out):
        pass


def test_can_one_run_after_another_use_the_same_out(tmp_path):
    out = tmp_path / "out"
    for _ in range(2):
        result = grade_batch([entry("ana", submission(tmp_path / "in", "ana", do="ok", log=tmp_path / "log"))], out,
                             rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=1)
        assert [r.student for r in result.rows] == ["ana"]
