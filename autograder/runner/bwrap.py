"""The "bubblewrap" level: the child runs inside `bwrap`, one sandbox per child (not per case).

What the student's code sees and can do:
- namespaces of its own (--unshare-all): no network but a loopback of its own, its own
  PID space (when its pid 1 dies the kernel kills the rest), IPC, UTS, cgroup; a user
  namespace, and none further (--disable-userns);
- a read-only view of /usr (/bin, /lib... as on the host), /etc/ld.so.cache, the Python
  installation, the child's folder (/grader/child), the case programs when they are not
  the child's own (/grader/programs) and the submission (/submission); a fresh /proc and
  /dev; a private /tmp (a small tmpfs) as its working folder and HOME, the only place it
  can write (bwrap's root is remounted read-only); nothing else:
  not the kit, not the output folder, not other submissions, not /work, /root or /home;
- run by root, uid/gid 65534 inside. The user namespace maps it to the grader's uid
  outside (bwrap run by root is not setuid and can map one uid only), so RLIMIT_NPROC
  can't stop fork: a seccomp filter does (fork, vfork and clone without CLONE_THREAD
  fail with EPERM; clone3 with ENOSYS, so threads fall back to clone) on x86_64 and
  aarch64; elsewhere fork works but stays in the PID namespace;
- no capabilities, no_new_privs, a session of its own (--new-session: no TIOCSTI);
- the rlimits of the other levels, but RLIMIT_NPROC: bwrap forks twice itself.

bwrap reports a child killed by signal N as exit status 128 + N: exit_status undoes it.
Killing: SIGKILL to bwrap's process group (bwrap and the namespace's pid 1), then a
wait until pid 1 is gone, which the kernel allows only once every process in the
namespace is.
"""
from __future__ import annotations

import errno
import functools
import os
import platform
import select
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

from autograder.runner.levels import (
    NOBODY, PROBE_CODE, PROBE_TIMEOUT, Launch, Level, _last_line, child_argv, empty_folder,
)
from autograder.runner.sandbox import CHILD_MAIN, Limits, kill_session, set_limits

CHILD_DIR = "/grader/child"
PROGRAMS_DIR = "/grader/programs"
SUBMISSION = "/submission"
WORK = "/tmp"                    # the working folder and HOME, a tmpfs
TMPFS_MB = 64
KILL_WAIT = 5.0                  # seconds to wait for the namespace to empty after the kill
ROOT_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class BubblewrapLevel(Level):
    name = "bubblewrap"

    def __init__(self, bwrap: str, python: str, features: frozenset[str]):
        super().__init__()
        self.bwrap, self.python, self.features = bwrap, python, features
        self.seccomp = fork_filter()

    def launch(self, *, limits: Limits, cpu: int, home: str, student_root: str,
               programs_dir: str | None, job_fd: int, result_fd: int) -> Launch:
        programs = PROGRAMS_DIR if programs_dir is not None else None
        command = child_argv(self.python, f"{CHILD_DIR}/{Path(CHILD_MAIN).name}", job_fd, result_fd, programs)
        argv, fds = self.command(student_root, programs_dir, command)
        return Launch(argv=argv, cwd="/", env={"PATH": "/usr/bin:/bin"},
                      preexec=lambda: set_limits(limits, cpu, nproc=False), student_root=SUBMISSION,
                      pass_fds=(job_fd, result_fd) + tuple(fds), close_after_start=fds)

    def command(self, student_root: str, programs_dir: str | None,
                command: list[str]) -> tuple[list[str], list[int]]:
        """bwrap's argv running `command`, and the fds (pipes' read ends) it reads its options from.

        The options go through a pipe (--args): /proc/1/cmdline in the sandbox shows no host paths.
        """
        fds = []
        try:
            seccomp_fd = None
            if self.seccomp is not None:
                fds.append(seccomp_fd := _data_fd(self.seccomp))
            options = self.argv(student_root, programs_dir, seccomp_fd)[1:]
            fds.append(args_fd := _data_fd(b"".join(os.fsencode(arg) + b"\0" for arg in options)))
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        return [self.bwrap, "--args", str(args_fd), "--"] + command, fds

    def argv(self, student_root: str, programs_dir: str | None, seccomp_fd: int | None) -> list[str]:
        """bwrap and its options, up to the command."""
        argv = [self.bwrap, "--unshare-all"]
        if "--disable-userns" in self.features:
            argv += ["--unshare-user", "--disable-userns"]
        argv += ["--die-with-parent", "--new-session"]
        if os.geteuid() == 0:
            argv += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
        argv += ["--ro-bind", "/usr", "/usr"]
        for path in ROOT_LINKS:
            if os.path.islink(path):
                argv += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                argv += ["--ro-bind", path, path]
        argv += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        for path in python_paths(self.python):
            argv += ["--ro-bind", path, path]
        argv += ["--proc", "/proc", "--dev", "/dev"]
        if "--size" in self.features:
            argv += ["--size", str(TMPFS_MB << 20)]
        argv += ["--tmpfs", WORK]
        argv += ["--ro-bind", str(Path(CHILD_MAIN).parent), CHILD_DIR]
        if programs_dir is not None:
            argv += ["--ro-bind", str(programs_dir), PROGRAMS_DIR]
        argv += ["--ro-bind-try", str(student_root), SUBMISSION]  # none: the child says the files are missing
        argv += ["--remount-ro", "/", "--chdir", WORK, "--clearenv"]
        for name, value in (("PATH", "/usr/bin:/bin"), ("LANG", "C.UTF-8"), ("HOME", WORK), ("TMPDIR", WORK)):
            argv += ["--setenv", name, value]
        if seccomp_fd is not None:
            argv += ["--seccomp", str(seccomp_fd)]
        return argv

    def exit_status(self, returncode: int) -> int:
        return -(returncode - 128) if 128 < returncode < 128 + 65 else returncode

    def kill(self, pid: int) -> None:
        waits = [fd for fd in map(_pidfd, _children(pid)) if fd is not None]
        try:
            kill_session(pid)
            _wait_readable(waits, KILL_WAIT)
        finally:
            for fd in waits:
                os.close(fd)

    def note(self) -> None:
        return None


def _data_fd(data: bytes) -> int:
    """The read end of a pipe holding data, its write end closed (bwrap reads to the end)."""
    read, write = os.pipe()
    try:
        while data:  # a few kB at most: the pipe's buffer holds it
            data = data[os.write(write, data):]
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)
    return read


def python_paths(python: str) -> list[str]:
    """What of the Python installation must be bound, beyond /usr: its prefix, or the executable."""
    prefix = os.path.realpath(sys.base_prefix) if python == os.path.realpath(sys.executable) else \
        os.path.dirname(os.path.dirname(python))
    paths = []
    if not _under(prefix, "/usr"):
        paths.append(prefix)
    if not any(_under(python, p) for p in ["/usr"] + paths):
        paths.append(python)
    return paths


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _children(pid: int) -> list[int]:
    """The child processes of pid (bwrap's: the namespace's pid 1), from /proc."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(x) for x in f.read().split()]
        except (OSError, ValueError):
            pass
    return found


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _wait_readable(fds: list[int], timeout: float) -> None:
    """Wait until every pidfd is readable (its process has ended), for at most timeout seconds."""
    end = time.monotonic() + timeout
    pending = list(fds)
    while pending:
        remaining = end - time.monotonic()
        if remaining <= 0:
            return
        ready, _, _ = select.select(pending, [], [], remaining)
        pending = [fd for fd in pending if fd not in ready]


# -- seccomp: no new processes --------------------------------------------------------------

_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_CLONE_THREAD = 0x00010000
# machine -> (AUDIT_ARCH, {syscall: number}); x86_64's x32 numbers (bit 30) are refused whole
_ARCHES = {
    "x86_64": (0xC000003E, {"clone": 56, "fork": 57, "vfork": 58, "clone3": 435}),
    "aarch64": (0xC00000B7, {"clone": 220, "clone3": 435}),
}


def fork_filter(machine: str | None = None) -> bytes | None:
    """A classic-BPF seccomp program refusing new processes (threads allowed), or None for an
    architecture it doesn't know."""
    machine = machine or platform.machine()
    if machine not in _ARCHES:
        return None
    arch, nr = _ARCHES[machine]
    program: list[tuple] = []   # (code, jt label or offset, jf, k)

    def op(code, k, jt=0, jf=0):
        program.append((code, jt, jf, k))

    op(_LD_W_ABS, 4)                                   # seccomp_data.arch
    op(_JEQ_K, arch, 0, "deny")                         # another ABI (int 0x80): refused
    op(_LD_W_ABS, 0)                                   # seccomp_data.nr
    if machine == "x86_64":
        op(_JGE_K, 0x40000000, "deny", 0)              # x32
    for name in ("fork", "vfork"):
        if name in nr:
            op(_JEQ_K, nr[name], "eperm", 0)
    op(_JEQ_K, nr["clone3"], "enosys", 0)
    op(_JEQ_K, nr["clone"], 0, "allow")
    op(_LD_W_ABS, 16)                                  # args[0] (flags), low 32 bits
    op(_JSET_K, _CLONE_THREAD, "allow", "eperm")
    labels = {}
    for label, ret in (("allow", _ALLOW), ("eperm", _ERRNO | errno.EPERM),
                       ("enosys", _ERRNO | errno.ENOSYS), ("deny", _ERRNO | errno.EPERM)):
        labels[label] = len(program)
        op(_RET_K, ret)
    out = []
    for i, (code, jt, jf, k) in enumerate(program):
        jt = labels[jt] - i - 1 if isinstance(jt, str) else jt
        jf = labels[jf] - i - 1 if isinstance(jf, str) else jf
        out.append(struct.pack("=HBBI", code, jt, jf, k))
    return b"".join(out)


# -- the probe ------------------------------------------------------------------------------

def _features(bwrap: str) -> frozenset[str]:
    """The options of ours this bwrap knows (older ones lack some)."""
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, timeout=PROBE_TIMEOUT).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(opt for opt in ("--disable-userns", "--size") if opt in text)


@functools.lru_cache(maxsize=None)
def probe(python: str) -> tuple[BubblewrapLevel | None, str]:
    """(the level, "") when bwrap runs the child's Python with the very options of a child."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None, "no bwrap on PATH"
    level = BubblewrapLevel(bwrap, python, _features(bwrap))
    limits = Limits()
    with empty_folder() as submission:
        argv, fds = level.command(submission, None, [
            python, "-I", "-S", "-c", PROBE_CODE, f"{CHILD_DIR}/{Path(CHILD_MAIN).name}"])
        try:
            done = subprocess.run(argv, cwd="/", env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=PROBE_TIMEOUT, start_new_session=True,
                                  pass_fds=fds,
                                  preexec_fn=lambda: set_limits(limits, limits.cpu_seconds(1), nproc=False))
        except (OSError, subprocess.SubprocessError) as err:
            return None, f"bwrap did not run: {err}"
        finally:
            for fd in fds:
                os.close(fd)
    words = done.stdout.split()
    if done.returncode != 0 or not words or words[0] != b"ok":
        return None, f"bwrap's test run failed: {_last_line(done.stderr)}"
    if os.geteuid() == 0 and words[1:] != [str(NOBODY).encode()]:
        return None, f"bwrap's test run ran as uid {b' '.join(words[1:]).decode()}, not {NOBODY}"
    return level, ""
