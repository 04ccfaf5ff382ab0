"""Does a child's home (its private working folder, a copy of the submission in it at some levels) go at the
next run when the grading process was killed outright, and is it empty and gone after a normal one?"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from autograder import scratch

ROOT = Path(__file__).resolve().parents[2]


def _kit_env(tmp: Path) -> dict:
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}


def _homes(tmp: Path) -> list[str]:
    return sorted(name for name in os.listdir(tmp) if name.startswith("backprop-child-"))


def _copies(tmp: Path, marker: str) -> list[str]:
    """The kit's folders holding a copy of the file with `marker` in it: a child's home (in the temporary
    folder), or a zygote's staging folder (there, or in memory: scratch.SHM; other runs' are left out)."""
    found = []
    for place in (tmp, Path(scratch.SHM)):
        names = os.listdir(place) if place.is_dir() else []
        for name in names:
            folder = place / name
            if name.startswith(("backprop-child-", "backprop-staging-")) and any(
                    marker in path.read_text(errors="replace") for path in folder.rglob("engine.py")):
                found.append(str(folder))
    return sorted(found)


def test_is_a_home_left_by_a_killed_grader_swept_by_the_next_folder_made(tmp_path, monkeypatch):
    code = ("import os; from autograder.runner.sandbox import child_home; home = child_home(); "
            "open(os.path.join(home, 'engine.py'), 'w').write('# a student'); print(home, flush=True); "
            "os.kill(os.getpid(), 9)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=_kit_env(tmp_path), cwd=ROOT)
    assert done.returncode == -signal.SIGKILL, done.stderr
    home = Path(done.stdout.strip())
    assert (home / "engine.py").exists() and home.parent.parent == tmp_path
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(scratch, "_SWEPT", [])
    with scratch.scratch("autograder-"):
        assert _homes(tmp_path) == []


def test_is_a_live_childs_home_empty_kept_from_a_sweep_and_gone_after(tmp_path, monkeypatch):
    from autograder.runner.sandbox import child_home, remove_child_home
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    home = child_home()
    assert os.listdir(home) == [], "the child sees an empty folder: the lock is beside it, not in it"
    assert os.path.basename(home) == os.path.basename(os.path.dirname(home)), "its name stays unique"
    assert scratch.sweep(str(tmp_path)) == 0 and os.path.isdir(home)
    Path(home, "left.txt").write_text("a child's file")
    remove_child_home(home)
    assert _homes(tmp_path) == []


def test_does_a_check_killed_outright_leave_nothing_after_the_next_check(tmp_path):
    student = tmp_path / "student"
    (student / "micrograd").mkdir(parents=True)
    (student / "micrograd" / "__init__.py").write_text("")
    marker = f"# {tmp_path}"  # this test's student: not another run's
    (student / "micrograd" / "engine.py").write_text(f"{marker}\nimport time\ntime.sleep(60)\n")  # the import never ends
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    check = [sys.executable, "-m", "autograder", "check", str(student)]
    proc = subprocess.Popen(check, env=_kit_env(tmp), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not _copies(tmp, marker) and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.05)
        assert _copies(tmp, marker), "the check copied the submission"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert _copies(tmp, marker), "killed outright, it left its copy"
    (student / "micrograd" / "engine.py").write_text("")  # the next check ends at once (its copy: no marker)
    subprocess.run(check, env=_kit_env(tmp), cwd=ROOT, capture_output=True, timeout=120)
    assert _copies(tmp, marker) == []
