"""The child process: started with limits, read with deadlines, killed with its whole session.

How the child is started, and what else holds it, is its sandbox level's (levels/:
"bubblewrap", "uid" or "basic"). Every level: rlimits (memory, CPU, file size, open
files, no core files; processes: see the levels), a scrubbed environment, a private
empty working folder, a session of its own, no site-packages (`-I -S`).

Its limits are limits.py's; what it leaves behind is found and killed by cleanup.py.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections import deque
from pathlib import Path

from autograder.runner.bytecode import compile_once
from autograder.runner.cleanup import LIVE, REAPER_LOCK, become_subreaper, own_children, start_ticks, sweep_orphans
from autograder.runner.limits import Limits

CHILD_MAIN = Path(__file__).resolve().parent.parent / "child" / "main.py"
STREAM_CAP = 16_384  # bytes of the child's real stdout / stderr kept, for notes
TIMEOUT, DEAD, FLOOD = "timeout", "dead", "flood"
MAX_QUEUED_LINES = 2_000   # result lines waiting to be read; past it a flood's lines are dropped
READS_PER_WAKE = 16        # 64 KiB reads of the result pipe before the clock is looked at again
READ, WRITE = select.POLLIN, select.POLLOUT


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
        """level: how to start, end and describe the child (runner/levels/basic.py's Level, chosen by levels/__init__.py)."""
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
        # select.poll, not a selectors wrapper: one wait per case, and (un)registering is no system call
        self.poller = select.poll()
        self.handlers: dict[int, object] = {}  # fd -> what reads or writes it once poll says it is ready
        self._fds: list[int] = []
        self.finish = None         # the level's own clearing up (Launch.finish), once the child is reaped
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
        for folder in (CHILD_MAIN.parent, programs_dir):  # the child can't write their bytecode itself
            if folder is not None:
                compile_once(str(folder))
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
            self.finish = launch.finish
            become_subreaper()
            with REAPER_LOCK:  # registered before another thread's sweep can see it
                self.before = own_children()
                self.proc = launch.spawn() if launch.spawn is not None else subprocess.Popen(
                    launch.argv, cwd=launch.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, env=launch.env, pass_fds=launch.pass_fds, start_new_session=True,
                    preexec_fn=launch.preexec,
                )
                LIVE.add(self.proc.pid)
            self.started = start_ticks(self.proc.pid)
        finally:
            for fd in passed:
                os.close(fd)
        self.job = json.dumps(job).encode() + b"\n"  # the header: sent from next_line's wait
        self.job_fd = job_w
        os.set_blocking(job_w, False), os.set_blocking(res_r, False)
        self._watch(res_r, READ, self._on_result)
        self._watch(job_w, WRITE, self._on_job)
        for name in ("stdout", "stderr"):
            stream = getattr(self.proc, name)
            self._watch(stream.fileno(), READ, lambda _fd, name=name, stream=stream: self._drain(name, stream))
        try:
            self._fds.append(os.pidfd_open(self.proc.pid))
            self._watch(self._fds[-1], READ, self._on_exit)
        except (AttributeError, OSError):  # no pidfd: the result pipe's end is the sign
            pass
        self.result_fd = res_r

    def _watch(self, fd: int, events: int, handler) -> None:
        self.poller.register(fd, events)
        self.handlers[fd] = handler

    def _unwatch(self, fd: int) -> None:
        if self.handlers.pop(fd, None) is not None:
            self.poller.unregister(fd)

    # -- reading ---------------------------------------------------------------------------

    def next_line(self, deadline: float) -> bytes | str:
        """The clock is read before every line, queued or not: whatever the child writes, the
        deadline holds."""
        lines, handlers = self.lines, self.handlers
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return TIMEOUT
            if lines:
                return lines.popleft()
            if not self.result_open:
                return DEAD
            for fd, _ in self.poller.poll(min(remaining, 1.0) * 1000):  # ms, rounded up
                handler = handlers.get(fd)
                if handler is not None:  # not one an earlier handler of this wake unwatched
                    handler(fd)

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
                self._unwatch(fd)
                return
            self.received += len(chunk)
            self._split(chunk)
            if len(chunk) < 1 << 16:  # the pipe is drained: no read to fail; poll says if more comes
                return

    def _split(self, chunk: bytes) -> None:
        if not self.partial and not self.skipping and chunk.endswith(b"\n"):  # the usual read: the child's
            line = chunk[1:-1] if chunk.startswith(b"\n") else chunk[:-1]  # "\n<line>\n", nothing before it
            if b"\n" not in line:
                self._queue(line)
                return
        *complete, rest = (self.partial + chunk).split(b"\n")
        for i, line in enumerate(complete):
            if not (i == 0 and self.skipping and len(line) <= self.limits.max_result_line):
                self._queue(line)  # not the tail of an overlong line (too long itself: counted again)
        if complete:
            self.skipping = False
        if len(rest) > self.limits.max_result_line:
            self.dropped_long += not self.skipping
            self.skipping, rest = True, b""
        self.partial = rest

    def _queue(self, line: bytes) -> None:
        """A complete line read: kept for next_line unless it is empty, too long, or one too many."""
        if len(line) > self.limits.max_result_line:
            self.dropped_long += 1
        elif line:
            if len(self.lines) < MAX_QUEUED_LINES:
                self.lines.append(line)
            else:
                self.flooded += 1

    def _on_exit(self, fd: int) -> None:
        # the process has ended: what it wrote is all in the pipe, unless a grandchild
        # holds the pipe open; read it, then stop waiting
        self._unwatch(fd)
        self._on_result(self.result_fd)
        if self.result_open:
            self.result_open = False
            self._unwatch(self.result_fd)

    def _drain(self, name: str, stream) -> bool:
        """Read what is there of the child's stdout or stderr, keep the start; False at its end."""
        chunk = os.read(stream.fileno(), 1 << 16)
        if not chunk:
            self._unwatch(stream.fileno())
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
        if self.job and self.job_fd is not None and self.job_fd not in self.handlers:
            self._watch(self.job_fd, WRITE, self._on_job)

    def close_input(self) -> None:
        """No more cases: the child reads the end of its job pipe and finishes."""
        if self.job_fd is not None:
            self._unwatch(self.job_fd)  # before it is closed: poll would report a closed fd for ever
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
        if not self.job and fd in self.handlers:
            self._unwatch(fd)  # until the next line; kill() closes it

    # -- ending ----------------------------------------------------------------------------

    def kill(self) -> int | None:
        """Kill the child's whole session, reap it, free everything; again is harmless.

        Returns the exit status (negative: the signal), None if it never started.
        """
        if self.proc is not None and self.proc.returncode is None:
            self.level.kill(self.proc.pid)  # before reaping: until then its pid can't be reused
            self.proc.wait()
            LIVE.discard(self.proc.pid)
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
        if self.finish is not None:
            finish, self.finish = self.finish, None
            finish()
        if self._fds is not None:
            for fd in list(self.handlers):
                self._unwatch(fd)
            for fd in self._fds:
                os.close(fd)
            self._fds = None
            try:
                os.rmdir(self.home)  # one system call where the home is empty (a zygote's child uses only its name)
            except OSError:
                shutil.rmtree(self.home, ignore_errors=True)
        return None if self.proc is None else self.level.exit_status(self.proc.returncode)

    def exited(self, wait: float = 0.0) -> bool:
        """Has the process ended (without reaping it: its id must stay its own until killed)?"""
        own = getattr(self.proc, "exited", None)  # a process that is not ours to wait for (levels/zygote/level.Forked)
        if own is not None:
            return own(wait)
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


