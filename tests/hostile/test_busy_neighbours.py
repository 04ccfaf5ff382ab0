"""Does every honest submission of a class keep the scores it gets graded alone, when the class is graded by
2 workers beside a submission that keeps short-lived busy threads running and one whose threads move onto the
other CPUs and spin there? (issue 28: a neighbour's moved threads cost an honest classmate a task in ~3 runs
of 7.) Through the real `autograder` command, on whatever else this shared machine is running."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
HONEST = ("honest-1", "honest-2", "honest-3", "honest-4", "honest-5")

CHAIN = '''
import threading as _th
import time as _t

def _spin():
    end = _t.thread_time() + 0.001
    while _t.thread_time() < end:
        pass
    _th.Thread(target=_spin, daemon=True).start()

_started = []
_backward = Value.backward

def _busy_backward(self):
    if not _started:  # once a process: a chain of 1 ms threads that never ends
        _started.append(True)
        _th.stack_size(1 << 20)
        _th.Thread(target=_spin, daemon=True).start()
    _backward(self)

Value.backward = _busy_backward
'''

MOVER = '''
import os as _os
import threading as _th

def _elsewhere():
    mine = _os.sched_getaffinity(0)
    try:
        _os.sched_setaffinity(0, set(range(_os.cpu_count() or 1)) - mine or mine)
    except OSError:
        pass
    while True:
        pass

_started = []
_backward = Value.backward

def _moving_backward(self):
    if not _started:  # once a process: four threads that move onto the other CPUs and spin there
        _started.append(True)
        _th.stack_size(1 << 20)
        for _ in range(4):
            _th.Thread(target=_elsewhere, daemon=True).start()
    _backward(self)

Value.backward = _moving_backward
'''


def autograder(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "autograder", *args, "--config", str(KIT / "assignment.toml")],
                          cwd=KIT, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return done


def submission(folder: Path, extra: str = "") -> Path:
    shutil.copytree(KIT / "solutions" / "micrograd", folder / "micrograd")
    engine = folder / "micrograd" / "engine.py"
    engine.write_text(engine.read_text() + "\n\n" + extra)
    return folder


def task_scores(report: dict) -> dict[str, float]:
    return {task["id"]: task["score"] for task in report["tasks"]}


def test_do_honest_submissions_keep_their_scores_beside_busy_and_moving_threads(tmp_path):
    subs = tmp_path / "class"
    # the neighbours sort first and between the honest ones: each worker meets them while grading honest code
    submission(subs / "a-busy-threads", CHAIN)
    submission(subs / "honest-1")
    submission(subs / "a-moving-threads", MOVER)
    for name in HONEST[1:]:
        submission(subs / name)
    alone = json.loads(autograder("grade", str(subs / "honest-1"), "--format", "json").stdout)
    assert alone["score"] == alone["max_score"]

    autograder("grade", str(subs), "--out", str(tmp_path / "out"), "--workers", "2")
    for name in HONEST:
        report = json.loads((tmp_path / "out" / "reports" / f"{name}.json").read_text())
        assert task_scores(report) == task_scores(alone), name
