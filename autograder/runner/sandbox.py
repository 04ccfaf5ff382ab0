"""The child process: started with limits, read with deadlines, killed with its whole session.

How the child is started, and what else holds it, is its sandbox level's (levels.py:
"bubblewrap", "uid" or "basic"). Every level: rlimits (memory, CPU, file size, open
files, no core files; processes: see the levels), a scrubbed environment, a private
empty working folder, a session of its own, no site-packages (`-I -S`).

What the child leaves behind: the grading process is a child subreaper (once per
process, Linux), so whatever the child starts and then orphans (a double-fork daemon in
a session of its own, which the session kill misses) is reparented to the grading
process and not to init. When a child ends, `sweep_orphans` SIGKILLs and reaps every
process that came to the grading process that way since the child started (see there).
"""
from __future__ import annotations

import ctypes
import json
import math
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

CHILD_MAIN = Path(__file__).resolve().parent.parent / "child" / "main.py"
STREAM_CAP = 16_384  # bytes of the child's real stdout / stderr kept, for notes
TIMEOUT, DEAD, FLOOD = "timeout", "dead", "flood"
MAX_QUEUED_LINES = 2_000   # result lines waiting to be read; past it a flood's lines are dropped
READS_PER_WAKE = 16        # 64 KiB reads of the result pipe before the clock is looked at again


@dataclass(frozen=True)
class Limits:
    case_timeout: float = 3.0          # seconds of wall time per case, from the previous result line
    import_timeout: float = 5.0        # seconds to start and import the student's package
    memory_mb: int = 1024              # address space
    file_size_mb: int = 1              # largest file the child may write
    output_cap: int = 4000             # characters of a case's prints kept
    max_result_line: int = 1_000_000   # bytes; longer lines are dropped
    max_case_bytes: int = 8_000_000    # bytes on the result pipe while one case is awaited: past it, a flood
    max_case_lines: int = 2_000        # lines that are not the awaited result, per case: past it, a flood
    submission_budget: float = 0.0     # seconds of wall time for all of a submission's cases; 0: derived
    open_files: int = 64
    stack_mb: int = 256                # deep enough for the child's recursion limit of 10,000

    def budget(self, n_cases: int, n_tasks: int) -> float:
        """The wall-clock budget of one submission: the rubric's, else enough for every task to time
        out twice (the per-task limit) or for a tenth of the cases to run their full timeout."""
        if self.submission_budget > 0:
            return self.submission_budget
        return self.import_timeout + self.case_timeout * max(2 * n_tasks, math.ceil(n_cases / 10), 1)

    def cpu_seconds(self, n_cases: int) -> int:
        """CPU time for a child running n_cases: a backstop, the wall-time deadlines come first."""
        return math.ceil(self.import_timeout + self.case_timeout * max(n_cases, 1)) + 1


def set_limits(limits: Limits, cpu: int, *, nproc: bool = True) -> None:
    """In the child, between fork and exec: the rlimits. Must not raise.

    nproc=False leaves RLIMIT_NPROC alone (bwrap forks itself; its seccomp filter stops fork).
    """
    mb = 1 << 20
    wanted = [
        (resource.RLIMIT_AS, limits.memory_mb * mb),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * mb),
        *([(resource.RLIMIT_NPROC, 0)] if nproc else []),  # no fork (ignored for root)
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_STACK, limits.stack_mb * mb),
    ]
    for which, value in wanted:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    _die_with_parent()


def _die_with_parent() -> None:
    """SIGKILL this process when the grading process dies, even if it is killed."""
    try:
        parent = os.getppid()
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


# -- what the child leaves behind ------------------------------------------------------------

_LIVE: set[int] = set()        # pids of this process's children (Child.proc) not yet reaped
_reaper_lock = threading.Lock()
_reaper_pid: int | None = None  # the process that made itself a subreaper (a fork is not one)
SWEEP_TIME = 3.0                # seconds at most to kill and reap what a child left


def become_subreaper() -> bool:
    """Make this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER), once per process.

    Orphans of its descendants then come to it, not to init, where sweep_orphans finds them.
    False where the kernel has no such thing (not Linux, or a very old one).
    """
    global _reaper_pid
    with _reaper_lock:
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


def _stat(pid: int | str) -> tuple[str, int, int, int] | None:
    """(state, ppid, session, start time in clock ticks since boot) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rfind(b")") + 2:].split()  # after "pid (comm) ": field 3 on
        return fields[0].decode(), int(fields[1]), int(fields[3]), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def start_ticks(pid: int) -> int:
    """When a process started, in /proc's clock ticks since boot (0 if /proc can't say)."""
    stat = _stat(pid)
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
            stat = _stat(entry) if entry.isdigit() else None
            if stat and stat[1] == pid:
                found.append(int(entry))
    except OSError:
        pass
    return found


def own_children() -> dict[int, int]:
    """This process's children now: pid -> start time (what a sweep must leave alone)."""
    found = {}
    for pid in children_of(os.getpid()):
        stat = _stat(pid)
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
        stat = _stat(pid)
        if stat is None or pid in _LIVE:
            continue
        _state, _ppid, sid, started = stat
        if sid != mine and started >= since and before.get(pid) != started:
            roots.append(pid)
            found[pid] = started
    stack = list(roots)
    while stack:
        for pid in children_of(stack.pop()):
            stat = _stat(pid)
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
        with _reaper_lock:  # no Child starts meanwhile: one just forked is not yet in _LIVE
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
        stat = _stat(pid)
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


class Child:
    """One child process and the conversation with it: the job's header line first, then a
    line per case as `send` is called; its result lines one by one; kill.

    Every write is non-blocking and made from next_line's wait, under its deadline: a
    child that stops reading, closes its end or fills the pipe can't hold the parent.

    `next_line(deadline)` returns a line (bytes, without the newline), TIMEOUT, or
    DEAD (the result pipe closed or the process ended, every line it sent read).
    The child's own stdout and stderr are drained all along and capped.
    """

    def __init__(self, job: dict, limits: Limits, *, level, programs_dir: Path | None = None):
        """level: how to start, end and describe the child (runner/level.py, chosen by levels.py)."""
        self.limits, self.level = limits, level
        self.home = tempfile.mkdtemp(prefix="backprop-child-")
        self.lines: deque[bytes] = deque()
        self.partial = b""
        self.received = 0          # bytes read from the result pipe, all told
        self.flooded = 0           # lines dropped because MAX_QUEUED_LINES were already waiting
        self.skipping = False      # inside a line that grew past max_result_line
        self.dropped_long = 0
        self.result_open = True
        self.streams = {"stdout": bytearray(), "stderr": bytearray()}  # their first STREAM_CAP bytes
        self.proc = None
        self.started = 0           # the child's start, in clock ticks (start_ticks)
        self.before: dict[int, int] = {}  # the grading process's children then (own_children)
        self.selector = selectors.DefaultSelector()
        self._fds: list[int] = []
        try:
            self._start(job, programs_dir)
        except BaseException:
            self.kill()
            raise

    def _start(self, job: dict, programs_dir: Path | None) -> None:
        job_r, job_w = os.pipe()
        res_r, res_w = os.pipe()
        self._fds += [job_w, res_r]
        cpu = self.limits.cpu_seconds(len(job.get("cases", ())))
        passed = [job_r, res_w]
        try:
            packages = tuple(job.get("packages", ()))  # host paths: the child gets only its own view, "site"
            launch = self.level.launch(
                limits=self.limits, cpu=cpu, home=self.home, student_root=job["student_root"],
                programs_dir=None if programs_dir is None else str(programs_dir), job_fd=job_r, result_fd=res_w,
                packages=packages)
            passed += launch.close_after_start
            job = {k: v for k, v in job.items() if k != "packages"}
            job.update(student_root=launch.student_root, site=launch.site)  # as the child sees them
            become_subreaper()
            with _reaper_lock:  # registered before another thread's sweep can see it
                self.before = own_children()
                self.proc = subprocess.Popen(
                    launch.argv, cwd=launch.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, env=launch.env, pass_fds=launch.pass_fds, start_new_session=True,
                    preexec_fn=launch.preexec,
                )
                _LIVE.add(self.proc.pid)
            self.started = start_ticks(self.proc.pid)
        finally:
            for fd in passed:
                os.close(fd)
        self.job = json.dumps(job).encode() + b"\n"  # the header: sent from next_line's wait
        self.job_fd = job_w
        for fd in (job_w, res_r):
            os.set_blocking(fd, False)
        self.selector.register(res_r, selectors.EVENT_READ, "result")
        self.selector.register(job_w, selectors.EVENT_WRITE, "job")
        for name in ("stdout", "stderr"):
            self.selector.register(getattr(self.proc, name), selectors.EVENT_READ, name)
        try:
            self._fds.append(os.pidfd_open(self.proc.pid))
            self.selector.register(self._fds[-1], selectors.EVENT_READ, "exit")
        except (AttributeError, OSError):  # no pidfd: the result pipe's end is the sign
            pass
        self.result_fd = res_r

    # -- reading ---------------------------------------------------------------------------

    def next_line(self, deadline: float) -> bytes | str:
        """The clock is read before every line, queued or not: whatever the child writes, the
        deadline holds."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return TIMEOUT
            if self.lines:
                break
            if not self.result_open:
                return DEAD
            for key, _ in self.selector.select(min(remaining, 1.0)):
                getattr(self, "_on_" + key.data)(key.fileobj)
        return self.lines.popleft()

    def _on_result(self, fd: int) -> None:
        for _ in range(READS_PER_WAKE):  # then back to the clock: a child writing without end can't hold us
            if not self.result_open:
                return
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                self.result_open = False
                self.selector.unregister(fd)
                return
            self.received += len(chunk)
            self._split(chunk)

    def _split(self, chunk: bytes) -> None:
        *complete, rest = (self.partial + chunk).split(b"\n")
        for i, line in enumerate(complete):
            if len(line) > self.limits.max_result_line:
                self.dropped_long += 1
            elif line and not (i == 0 and self.skipping):  # not the tail of an overlong line
                if len(self.lines) < MAX_QUEUED_LINES:
                    self.lines.append(line)
                else:
                    self.flooded += 1
        if complete:
            self.skipping = False
        if len(rest) > self.limits.max_result_line:
            self.dropped_long += not self.skipping
            self.skipping, rest = True, b""
        self.partial = rest

    def _on_exit(self, fd: int) -> None:
        # the process has ended: what it wrote is all in the pipe, unless a grandchild
        # holds the pipe open; read it, then stop waiting
        self.selector.unregister(fd)
        self._on_result(self.result_fd)
        if self.result_open:
            self.result_open = False
            self.selector.unregister(self.result_fd)

    def _on_stdout(self, stream) -> None:
        self._drain("stdout", stream)

    def _on_stderr(self, stream) -> None:
        self._drain("stderr", stream)

    def _drain(self, name: str, stream) -> bool:
        """Read what is there of the child's stdout or stderr, keep the start; False at its end."""
        chunk = os.read(stream.fileno(), 1 << 16)
        if not chunk:
            if stream.fileno() in self.selector.get_map():
                self.selector.unregister(stream)
            return False
        kept = self.streams[name]
        kept += chunk[: max(0, STREAM_CAP - len(kept))]
        return True

    def send(self, line: bytes) -> None:
        """Queue one line for the child and write what the pipe takes now; the rest goes from next_line."""
        if self.job_fd is None:  # the child's end is gone, or the input was closed: its end shows that
            return
        self.job += line
        self._on_job(self.job_fd)
        if self.job and self.job_fd is not None and self.job_fd not in self.selector.get_map():
            self.selector.register(self.job_fd, selectors.EVENT_WRITE, "job")

    def close_input(self) -> None:
        """No more cases: the child reads the end of its job pipe and finishes."""
        if self.job_fd is not None:
            if self.job_fd in self.selector.get_map():
                self.selector.unregister(self.job_fd)
            os.close(self.job_fd)
            self._fds.remove(self.job_fd)
            self.job, self.job_fd = b"", None

    def _on_job(self, fd: int) -> None:
        try:
            written = os.write(fd, self.job)
        except BlockingIOError:
            return
        except OSError:  # the child closed its end (it ends, or its code did): nothing more to send
            self.job, self.job_fd = b"", None
        else:
            self.job = self.job[written:]
        if not self.job and fd in self.selector.get_map():
            self.selector.unregister(fd)  # until the next line; kill() closes it

    # -- ending ----------------------------------------------------------------------------

    def kill(self) -> int | None:
        """Kill the child's whole session, reap it, free everything; again is harmless.

        Returns the exit status (negative: the signal), None if it never started.
        """
        if self.proc is not None and self.proc.returncode is None:
            self.level.kill(self.proc.pid)  # before reaping: until then its pid can't be reused
            self.proc.wait()
            _LIVE.discard(self.proc.pid)
            if self.started:
                sweep_orphans(self.started, self.before)  # what it started and orphaned came to us, the subreaper
            for name in ("stdout", "stderr"):  # what is left in the pipes, for notes
                stream = getattr(self.proc, name)
                os.set_blocking(stream.fileno(), False)
                try:
                    while len(self.streams[name]) < STREAM_CAP and self._drain(name, stream):
                        pass
                except (BlockingIOError, ValueError):
                    pass
                stream.close()
        if self._fds is not None:
            self.selector.close()
            for fd in self._fds:
                os.close(fd)
            self._fds = None
            shutil.rmtree(self.home, ignore_errors=True)
        return None if self.proc is None else self.level.exit_status(self.proc.returncode)

    def exited(self, wait: float = 0.0) -> bool:
        """Has the process ended (without reaping it: its id must stay its own until killed)?"""
        end = time.monotonic() + wait
        while True:
            try:
                if os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    return True
            except ChildProcessError:
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.01)

    def stderr_mark(self) -> int:
        """Where the child's stderr (as kept) is now: stderr_tail(since=mark) sees only what came after."""
        return len(self.streams["stderr"])

    def stderr_tail(self, chars: int = 200, since: int = 0) -> str:
        """The last line the child wrote on its real stderr since `since` (a crash's reason), or ""."""
        lines = bytes(self.streams["stderr"][since:]).decode("utf-8", "replace").strip().splitlines()
        return lines[-1][-chars:] if lines else ""


def kill_session(sid: int) -> None:
    """SIGKILL every process of session `sid` (its group first, then any that left the group)."""
    for _ in range(10):
        try:
            os.killpg(sid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
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
    members = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return members
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()  # after "pid (comm) "
        if len(fields) > 3 and fields[0] not in (b"Z", b"X") and int(fields[3]) == sid:
            members.append(int(entry))
    return members


def describe_exit(status: int, during: str = "during this case") -> str:
    """Why a child ended, in the words of a case's message."""
    if status >= 0:
        return f"the process exited with code {status} {during}"
    signum = -status
    name = {signal.SIGKILL: "killed by signal 9: memory limit?",
            signal.SIGXCPU: f"killed by signal {int(signal.SIGXCPU)} (SIGXCPU): the CPU time limit",
            signal.SIGSEGV: "crashed with signal 11 (SIGSEGV): a recursion too deep?",
            signal.SIGXFSZ: f"killed by signal {int(signal.SIGXFSZ)} (SIGXFSZ): a file larger than the limit"}
    try:
        default = f"killed by signal {signum} ({signal.Signals(signum).name})"
    except ValueError:
        default = f"killed by signal {signum}"
    return name.get(signum, default)
