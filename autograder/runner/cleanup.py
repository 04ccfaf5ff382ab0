"""What a child leaves behind, found and killed: its session, and what it orphaned.

The grading process is a child subreaper (once per process, Linux), so whatever the
child starts and then orphans (a double-fork daemon in a session of its own, which the
session kill misses) is reparented to the grading process and not to init. When a
child ends, `sweep_orphans` SIGKILLs and reaps every process that came to the grading
process that way since the child started. /proc/<pid>/stat is read in one place (proc_stat). Killing a
child's group or session, and waiting for it to end: kill.py.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from typing import Iterator


_PR_SET_CHILD_SUBREAPER = 36
LIVE: set[int] = set()        # pids of this process's children (Child.proc) not yet reaped
REAPER_LOCK = threading.Lock()
_reaper_pid: int | None = None  # the process that made itself a subreaper (a fork is not one)
SWEEP_TIME = 3.0                # seconds at most to kill and reap what a child left


def become_subreaper() -> bool:
    """Make this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER), once per process.

    Orphans of its descendants then come to it, not to init, where sweep_orphans finds them.
    False where the kernel has no such thing (not Linux, or a very old one).
    """
    global _reaper_pid
    with REAPER_LOCK:
        if _reaper_pid == os.getpid():
            return True
        if not sys.platform.startswith("linux"):
            return False
        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
                return False
        except (OSError, AttributeError):
            return False
        _reaper_pid = os.getpid()
        return True


def _fields(pid: int | str) -> list[bytes] | None:
    """The fields of /proc/<pid>/stat after "pid (comm) " (field 3 on), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:].split()


def proc_stat(pid: int | str) -> tuple[str, int, int, int] | None:
    """(state, ppid, session, start time in clock ticks since boot) of a process, from /proc."""
    fields = _fields(pid)
    try:
        return fields[0].decode(), int(fields[1]), int(fields[3]), int(fields[19])
    except (TypeError, ValueError, IndexError):
        return None


def _cpu_ticks(pid: int | str) -> int:
    """utime + stime of one process, in clock ticks (0 when /proc can't say)."""
    fields = _fields(pid)
    try:
        return int(fields[11]) + int(fields[12])
    except (TypeError, ValueError, IndexError):
        return 0


def tree(pid: int) -> Iterator[int]:
    """A process and its live descendants, each once (as /proc shows them while they are walked)."""
    todo, seen = [pid], set()
    while todo:
        one = todo.pop()
        if one in seen:
            continue
        seen.add(one)
        yield one
        todo += children_of(one)


def tree_cpu_seconds(pid: int) -> float:
    """The CPU time a process and its live descendants have used, in seconds (0 without /proc)."""
    return sum(_cpu_ticks(one) for one in tree(pid)) / _TICKS


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def start_ticks(pid: int) -> int:
    """When a process started, in /proc's clock ticks since boot (0 if /proc can't say)."""
    stat = proc_stat(pid)
    return stat[3] if stat else 0


def children_of(pid: int) -> list[int]:
    """The child processes of pid, from /proc/<pid>/task/*/children (or a scan of /proc)."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    try:
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    found += [int(x) for x in f.read().split()]
            except FileNotFoundError:
                if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                    continue  # a thread that ended meanwhile
                raise
    except (FileNotFoundError, ValueError):  # a kernel without the file: the long way
        found = []
        for entry in os.listdir("/proc"):
            stat = proc_stat(entry) if entry.isdigit() else None
            if stat and stat[1] == pid:
                found.append(int(entry))
    except OSError:
        pass
    return found


def own_children() -> dict[int, int]:
    """This process's children now: pid -> start time (what a sweep must leave alone)."""
    found = {}
    for pid in children_of(os.getpid()):
        stat = proc_stat(pid)
        if stat is not None:
            found[pid] = stat[3]
    return found


def _left_behind(since: int, before: dict[int, int]) -> tuple[dict[int, int], list[int]]:
    """(every process to kill -> its start time, the ones among them that are this process's own children).

    The roots: this process's children that are no live Child of ours, were not its children
    before the child started (`before`, from own_children), started at or after `since` (the
    child's start) and are not in this process's session (the child runs in a session of its
    own, and no process can ever join another's session: whatever it started is outside ours).
    With them, all their descendants, whatever their start or session.
    """
    me, mine = os.getpid(), os.getsid(0)
    found: dict[int, int] = {}
    roots = []
    for pid in children_of(me):
        stat = proc_stat(pid)
        if stat is None or pid in LIVE:
            continue
        _state, _ppid, sid, started = stat
        if sid != mine and started >= since and before.get(pid) != started:
            roots.append(pid)
            found[pid] = started
    stack = list(roots)
    while stack:
        for pid in children_of(stack.pop()):
            stat = proc_stat(pid)
            if stat is not None and pid not in found:
                found[pid] = stat[3]
                stack.append(pid)
    return found, roots


def sweep_orphans(since: int, before: dict[int, int]) -> int:
    """SIGKILL and reap what a child left behind (see _left_behind); returns how many there were.

    Called once the child is killed and reaped. Without the subreaper (become_subreaper) such
    orphans belong to init, out of reach: nothing is found. A process grading in several threads
    at once sweeps, from any of them, what any of its children left; a child of the grading
    process's own that another thread starts in a new session while the child runs would be
    taken for one (the grader starts none).
    """
    if _reaper_pid != os.getpid():
        return 0
    end = time.monotonic() + SWEEP_TIME
    swept: set[int] = set()
    while time.monotonic() < end:
        with REAPER_LOCK:  # no Child starts meanwhile: one just forked is not yet in LIVE
            found, own = _left_behind(since, before)
            for pid, started in found.items():
                _kill_if_same(pid, started)
        if not found:
            break
        swept.update(found)
        _reap(own, end)
    return len(swept)


def _kill_if_same(pid: int, started: int) -> None:
    """SIGKILL pid if it is still the process that started then (a pid freed meanwhile may be reused)."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None  # no pidfd (or the process is gone): a plain kill
    try:
        stat = proc_stat(pid)
        if stat is None or stat[3] != started:
            return
        if fd is not None:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
    finally:
        if fd is not None:
            os.close(fd)


def _reap(pids: list[int], end: float) -> None:
    """Reap these children of this process (each just sent SIGKILL), waiting for them until `end`."""
    pending = list(pids)
    while pending and time.monotonic() < end:
        still = []
        for pid in pending:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    still.append(pid)
            except ChildProcessError:  # reaped elsewhere meanwhile
                pass
        pending = still
        if pending:
            time.sleep(0.002)
