"""The bubblewrap level with a zygote: one bwrap per grading process, a fresh sandbox per submission.

Starting a child at the bubblewrap level costs bwrap, an interpreter and the child's imports
(~40 ms) per submission. Here one bwrap per grading process and thread (per case-program folder and
allowed packages) runs child/zygote.py, which has imported the child once, as uid 0 of the
grader's own user namespace (bwrap/level.py's "own uid") with CAP_SYS_ADMIN, CAP_SETUID,
CAP_SETGID, CAP_SETPCAP and CAP_KILL there: capabilities over that namespace's mounts and
processes only, harmless outside it. Per submission it forks a process in new PID, mount and
IPC namespaces (net, uts and cgroup are the bwrap's, already none of the host's), which mounts a
fresh /proc, /tmp and /dev/shm and binds that submission's folder alone (from the staging
folder: the grading process copies each submission there, readable by uid 65534, and removes
it when the child is killed); its own child drops every capability, becomes uid 65534 without
groups, sets the rlimits, no_new_privs and the fork filter, and runs main.py. What is kept per
submission (docs/architecture.md): a process of its own with the same limits, uid, view of the
files, namespaces and seccomp filter as a bwrap child, its /tmp, and nothing left of it after.

The child's handle (`Forked`) is what subprocess.Popen is to a bwrap child: its pid (the
submission's process, as the grader sees it: read off the control socket, SO_PASSCRED), its
stdout and stderr, its exit status; ending it kills the namespace's pid 1, and the kernel the rest.

Where the zygote can't start (no own user namespace: the grader is not root, or setpriv is
missing), or dies and can't be restarted, a child starts the plain bubblewrap way: the same level.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import threading
from pathlib import Path

from autograder.runner.cleanup import LIVE, REAPER_LOCK
from autograder.runner.levels.zygote import staging
from autograder.runner.levels.bwrap.level import CHILD_DIR, PROGRAMS_DIR, SWITCH_CAPS, TMPFS_MB, BubblewrapLevel, data_fd
from autograder.runner.sandbox import CHILD_MAIN

ZYGOTE = Path(CHILD_MAIN).parent / "zygote.py"
ZYGOTE_CAPS = SWITCH_CAPS + ("CAP_SYS_ADMIN", "CAP_KILL")
START_TIMEOUT = 10.0   # seconds for the zygote to start, or to fork a submission's sandbox
STOP_WAIT = 2.0        # seconds for the zygote to end once its control socket is closed, before a kill


def _preexec(join_keyring):
    def preexec() -> None:
        join_keyring()   # none of the grader's keys: each submission then joins one of its own (child/kernel.py)
        os.setgroups([])  # root's groups: none are carried into the sandbox
    return preexec


class ZygoteFailed(OSError):
    """The zygote did not answer as it should: it is stopped, and the next child starts another."""


class Zygote:
    """One bwrap running child/zygote.py, its control socket and its staging folder."""

    def __init__(self, level: BubblewrapLevel, programs_dir: str | None, packages: tuple[str, ...]):
        staging.sweep()  # what a killed run's zygotes left (the temporary folder's once per process)
        self.staging, self.held = staging.make()
        self.lock = threading.Lock()
        self.count = 0
        self._cpu = 0.0  # CPU seconds the zygote and the submissions it reaped have used, as of the last reap
        self.reaping: set[str] = set()  # submissions killed, whose reap the zygote has not answered yet
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        mine.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.control = mine
        fds = [theirs.fileno()]
        try:
            seccomp_fd = -1
            if level.seccomp is not None:
                fds.append(seccomp_fd := data_fd(level.seccomp))
            options = level.argv(self.staging, programs_dir, None, packages, caps=ZYGOTE_CAPS)[1:]
            fds.append(args_fd := data_fd(b"".join(os.fsencode(arg) + b"\0" for arg in options)))
            command = [level.python, "-I", "-S", f"{CHILD_DIR}/{ZYGOTE.name}", "--control-fd", str(theirs.fileno()),
                       "--seccomp-fd", str(seccomp_fd)] + (["--programs", PROGRAMS_DIR] if programs_dir else [])
            with REAPER_LOCK:  # a live child of ours, never taken for what a child left behind (cleanup.py)
                self.proc = subprocess.Popen(
                    [level.bwrap, "--args", str(args_fd), "--"] + command, cwd="/", env={"PATH": "/usr/bin:/bin"},
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    pass_fds=tuple(fds) + level.own_fds(), start_new_session=True, preexec_fn=_preexec(level.join_keyring))
                LIVE.add(self.proc.pid)
        except BaseException:
            mine.close()
            shutil.rmtree(self.staging, ignore_errors=True)
            os.close(self.held)
            raise
        finally:
            theirs.close()
            for fd in fds[1:]:
                os.close(fd)
        self.args = (programs_dir, packages)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _send(self, message: dict, fds: list[int] = ()) -> None:
        try:
            socket.send_fds(self.control, [json.dumps(message).encode()], list(fds))
        except OSError as err:
            raise ZygoteFailed(f"the zygote's control socket: {err}") from None

    def _receive(self, timeout: float) -> tuple[dict, int, int]:
        """The next message, and the pid and uid of who sent it."""
        ready, _, _ = select.select([self.control], [], [], timeout)
        if not ready:
            raise ZygoteFailed("the zygote did not answer")
        data, ancillary, _flags, _addr = self.control.recvmsg(1 << 16, socket.CMSG_SPACE(12))
        if not data:
            raise ZygoteFailed(f"the zygote ended: {self._stderr()}")
        pid = uid = -1
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid, uid, _gid = struct.unpack("3i", payload[:12])
        return json.loads(data), pid, uid

    def _stderr(self) -> str:
        if self.proc.poll() is None:
            return "no message"
        lines = self.proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1][:200] if lines else "no message"

    def fork(self, folder: str, fds: list[int], rlimits: list, argv: list[str]) -> tuple[str, int, int]:
        """A submission's sandbox: (its id here, its pid 1, its process), pids as the grader sees them."""
        with self.lock:
            self.count += 1
            ident = str(self.count)
            self._send({"op": "start", "id": ident, "folder": folder, "tmpfs_bytes": TMPFS_MB << 20,
                        "rlimits": rlimits, "argv": argv}, fds)
            pids = {}
            while len(pids) < 2:
                message, pid, uid = self._receive(START_TIMEOUT)
                if message.get("id") != ident:
                    self._answered(message)  # a reap asked earlier (reap_later): answered before this start
                    continue
                if "error" in message:
                    raise ZygoteFailed(f"the zygote could not make a sandbox: {message['error']}")
                if message.get("hello") == "child" and uid != 65534:
                    raise ZygoteFailed(f"the zygote's child runs as uid {uid}, not 65534")
                pids[message.get("hello")] = pid
            return ident, pids["init"], pids["child"]

    def reap(self, ident: str) -> int | None:
        """Kill the submission's pid 1 (the kernel ends the rest), reap it: its exit status."""
        with self.lock:
            self._send({"op": "reap", "id": ident})
            while True:
                message, _, _ = self._receive(START_TIMEOUT)
                status = self._answered(message)
                if message.get("id") == ident and "status" in message:
                    return status

    def reap_later(self, ident: str, pidfds: list[int]) -> bool:
        """Kill the submission's processes now (its pid 1 and the student's process: their pidfds), and ask the
        zygote to reap it without waiting for the answer: the namespace's teardown (a few ms of wall clock,
        little CPU) runs on while the grader scores. The zygote answers each message in turn, so it forks no
        other submission before this one's namespace is gone (`fork` reads the answer on its way). False
        where a process could not be signalled (nothing asked): reap it the waited way."""
        with self.lock:
            for fd in pidfds:
                try:
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                except ProcessLookupError:  # ended and reaped already (the student's, by its pid 1)
                    pass
                except OSError:
                    return False
            self._send({"op": "reap", "id": ident})
            self.reaping.add(ident)
            return True

    def _answered(self, message: dict) -> int | None:
        """A reap's answer taken in (the CPU figure): its exit status."""
        if "status" not in message:
            return None
        self.reaping.discard(message.get("id"))
        if isinstance(message.get("cpu"), float):
            self._cpu = message["cpu"]
        return message["status"]

    def settle(self) -> None:
        """Wait for the answer to every reap asked for (reap_later): each submission's namespace is gone."""
        with self.lock:
            try:
                while self.reaping and self.control.fileno() >= 0:
                    self._answered(self._receive(START_TIMEOUT)[0])
            except ZygoteFailed:
                self.reaping.clear()

    @property
    def cpu(self) -> float:
        """CPU seconds the zygote and the submissions it reaped have used (for benchmarks), every reap asked
        for answered first."""
        self.settle()
        return self._cpu

    def stop(self) -> None:
        """End the zygote (its bwrap's group: every submission still in it with it), remove its staging folder."""
        if self.control.fileno() < 0:
            return
        self.control.close()  # the zygote reads the end and exits; bwrap then ends, its namespace with it
        try:
            self.proc.wait(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        LIVE.discard(self.proc.pid)
        self.proc.stderr.close()
        shutil.rmtree(self.staging, ignore_errors=True)
        os.close(self.held)
