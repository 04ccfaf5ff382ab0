"""Ending a child: SIGKILL to its process group, or to every process of its session (from /proc), and
waiting on pidfds until its processes have ended. What it leaves behind is cleanup.py's.
"""
from __future__ import annotations

import os
import select
import signal
import time

from autograder.runner.cleanup import proc_stat


def kill_group(pgid: int) -> None:
    """SIGKILL process group `pgid` (no /proc scan: for a leader whose descendants can't leave it unseen)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_session(sid: int) -> None:
    """SIGKILL every process of session `sid` (its group first, then any that left the group)."""
    for _ in range(10):
        kill_group(sid)
        others = [pid for pid in _session_members(sid) if pid != sid]
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if not others:
            return
        time.sleep(0.01)


def _session_members(sid: int) -> list[int]:
    """Live (not zombie) processes whose session is sid, from /proc; [] where there is no /proc."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    members = []
    for entry in entries:
        stat = proc_stat(entry) if entry.isdigit() else None
        if stat is not None and stat[0] not in ("Z", "X") and stat[2] == sid:
            members.append(int(entry))
    return members


def has_ended(pid: int) -> bool:
    """Has this child of ours ended (not reaped yet)?"""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def pidfd(pid: int) -> int | None:
    """An fd that becomes readable when the process ends (None without pidfd_open)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def wait_readable(fds: list[int], timeout: float) -> None:
    """Wait until every pidfd is readable (its process has ended), for at most timeout seconds."""
    end = time.monotonic() + timeout
    pending = list(fds)
    while pending:
        remaining = end - time.monotonic()
        if remaining <= 0:
            return
        ready, _, _ = select.select(pending, [], [], remaining)
        pending = [fd for fd in pending if fd not in ready]
