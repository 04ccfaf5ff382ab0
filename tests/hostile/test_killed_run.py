"""Does nothing of a grading run outlive it when it is killed outright? (issue 31, item 5)

`autograder grade CLASS --out OUT --workers 2`, SIGKILLed mid-class (as kill -9 or the out-of-memory
killer would): a few seconds later, no process it started is left (its workers, their zygotes and
bwraps, the sandboxes' processes), and every CPU slot it held (same_cpu) is free for the next run. On
main, the workers went on for good, each holding its zygote and its slot (seen 12 minutes later).
"""
from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import corpus

SLOW_IMPORT = "\nimport time as _hx_time\n_hx_time.sleep(0.6)  # a slow submission: the class is mid-grading for a while\n"


def _stat(pid: int) -> tuple[int, int] | None:
    """(ppid, start time) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    if fields[0] in (b"Z", b"X"):
        return None
    return int(fields[1]), int(fields[19])


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def _descendants(roots: dict[int, int]) -> dict[int, int]:
    """Every live process below `roots` (pid -> start time, as they were seen), with the roots still alive."""
    table = {int(e): s for e in os.listdir("/proc") if e.isdigit() and (s := _stat(int(e))) is not None}
    found = {pid: start for pid, start in roots.items() if pid in table and table[pid][1] == start}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, start) in table.items():
            if ppid in found and pid not in found:
                found[pid] = start
                grew = True
    return found


def _class(folder: Path, count: int) -> None:
    files = corpus.base_files("solutions")
    files["engine.py"] += SLOW_IMPORT
    for i in range(count):
        corpus.write_folder(folder / f"student-{i:02d}", {name: text.encode() for name, text in files.items()})


def _held_slots(folder: Path) -> list[str]:
    held = []
    for path in sorted(folder.glob("*")) if folder.is_dir() else ():
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held.append(path.name)
        finally:
            os.close(fd)
    return held


def _unavailable(level: str) -> str:
    from autograder.runner import levels

    return levels._get(level, levels.interpreter())[1]


@pytest.mark.parametrize("level, zygote", [pytest.param("bubblewrap", "1", id="bubblewrap-zygote"),
                                           pytest.param("bubblewrap", "0", id="bubblewrap-no-zygote"),
                                           pytest.param("uid", "1", id="uid")])
def test_does_nothing_of_a_grading_run_outlive_its_sigkill(tmp_path, level, zygote):
    if _unavailable(level):
        pytest.skip(f"{level}: {_unavailable(level)}")
    _class(tmp_path / "class", 24)
    tmp = tmp_path / "tmp"  # its own temporary folder: its same_cpu slots apart from other graders'
    tmp.mkdir()
    (tmp_path / "rubric.toml").write_text(corpus.rubric_toml(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(corpus.REPO), "TMPDIR": str(tmp), "AUTOGRADER_SAME_CPU": "1",
           "AUTOGRADER_SANDBOX": level, "AUTOGRADER_ZYGOTE": zygote}
    proc = subprocess.Popen([sys.executable, "-m", "autograder", "grade", "class", "--out", "out", "--workers", "2",
                             "--config", "rubric.toml"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    seen: dict[int, int] = {}
    try:
        root = {proc.pid: _stat(proc.pid)[1]}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:  # mid-class: both workers in a sandbox
            seen.update(_descendants(root))
            if len(list((tmp_path / "out" / "reports").glob("*.json"))) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()[-2000:]!r}"
        seen.update(_descendants(root))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        left = seen
        deadline = time.monotonic() + 5.0  # "a few seconds later"
        while time.monotonic() < deadline:
            left = _descendants(seen)
            if not left:
                break
            time.sleep(0.1)
        assert len(seen) >= 3, f"the run was killed before it started its workers: {seen}"
        assert not left, f"{len(left)} of its {len(seen)} processes outlived the killed run: " + \
            ", ".join(f"{pid} ({_comm(pid)})" for pid in sorted(left))
        held = _held_slots(tmp / f"backprop-kit-cpus-{os.geteuid()}")
        assert not held, f"CPU slots still held after the run was killed: {held}"
        rerun = subprocess.run([sys.executable, "-m", "autograder", "grade", "class/student-00", "--config",
                                "rubric.toml"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert rerun.returncode == 0, rerun.stderr[-2000:]
        copies = sorted(p.name for p in tmp.glob("backprop-staging-*"))
        assert not copies, f"the killed run's copies of submissions outlived the next run: {copies}"
        kept = sorted(p.name for p in tmp.glob("autograder-*"))  # submissions prepared, a class unpacked
        assert not kept, f"the killed run's temporary folders outlived the next run: {kept}"
    finally:
        for pid in _descendants(seen or {proc.pid: 0}):  # what this test's run left (on main: its workers)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
