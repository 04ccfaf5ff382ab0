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
import shutil
import subprocess
import time
from pathlib import Path

from autograder import scratch
from autograder.runner.bytecode import compile_once
from autograder.runner.conversation import (  # noqa: F401  (DEAD, FLOOD, TIMEOUT: what next_line answers, re-exported)
    DEAD, FLOOD, READ, STREAM_CAP, TIMEOUT, WRITE, Conversation,
)
from autograder.runner.cleanup import LIVE, REAPER_LOCK, become_subreaper, own_children, start_ticks, sweep_orphans
from autograder.runner.limits import Limits

CHILD_MAIN = Path(__file__).resolve().parent.parent / "child" / "main.py"


class Child(Conversation):
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
        super().__init__(limits)
        self.level = level
        self.home = child_home() if level.needs_home() else None  # a zygote's child has a fresh /tmp instead
        self.proc = None
        self.started = 0           # the child's start, in clock ticks (start_ticks); 0: nothing to sweep
        self.before: dict[int, int] = {}  # the grading process's children then (own_children)
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
            if launch.spawn is not None:  # a zygote's fork: pid 2 of a PID namespace that ends with its pid 1,
                self.proc = launch.spawn()  # so nothing it starts is ever orphaned to us: no sweep to prepare
            else:
                become_subreaper()
                with REAPER_LOCK:  # registered before another thread's sweep can see it
                    self.before = own_children()
                    self.proc = subprocess.Popen(
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

    # -- ending ----------------------------------------------------------------------------

    def kill(self, wait: bool = True) -> int | None:
        """Kill the child's whole session, reap it, free everything; again is harmless.

        Returns the exit status (negative: the signal), None if it never started. `wait` False: the caller keeps
        no status (a run's end), and the level may reap it without waiting (Level.kill).
        """
        if self.proc is not None and self.proc.returncode is None:
            self.level.kill(self.proc.pid, wait=wait)  # before reaping: until then its pid can't be reused
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
            if self.home is not None:
                remove_child_home(self.home)
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


_LOCKS: dict[str, int] = {}  # a home's outer folder -> the fd of its lock (scratch.py), held while the child lives


def child_home() -> str:
    """The child's private, empty working folder: inside a folder of scratch.py's (its lock beside the home,
    out of the child's sight), so a grading process killed outright leaves nothing the next run won't sweep.
    The home keeps the outer folder's unique name (a zygote stages a copy under it)."""
    outer, fd = scratch.make("backprop-child-")
    home = os.path.join(outer, os.path.basename(outer))
    try:
        os.mkdir(home, 0o700)
    except BaseException:
        scratch.remove(outer, fd)
        raise
    _LOCKS[outer] = fd
    return home


def remove_child_home(home: str) -> None:
    """The home and its outer folder gone (a few system calls where the home is empty), then the lock let go."""
    outer = os.path.dirname(home)
    fd = _LOCKS.pop(outer, None)
    try:
        try:
            os.rmdir(home)  # a zygote's child uses only its name
        except OSError:
            shutil.rmtree(home, ignore_errors=True)
        os.unlink(os.path.join(outer, scratch.HELD))  # a sweep can no longer lock it, so it never takes it
        os.rmdir(outer)
    except OSError:
        shutil.rmtree(outer, ignore_errors=True)
    finally:
        if fd is not None:
            os.close(fd)


