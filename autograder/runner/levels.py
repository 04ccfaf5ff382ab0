"""How hard the child's sandbox is: the best level this machine offers, found once per process.

    bubblewrap  `bwrap` on PATH and a test run of it works (see bwrap.py): no network,
                its own PID space, a read-only view of the Python installation, the
                child's folder and the submission only, a private /tmp, no fork (a
                seccomp filter), no capabilities. Run by root, uid 65534 inside and
                on the host (a user namespace of the grading process's own, setpriv:
                see bwrap.py; where that can't be had, uid 0 outside, and the note
                says so); run by another user, that user's uid outside.
    uid         run as root, no usable bubblewrap: the child drops to uid/gid 65534
                (nobody), so RLIMIT_NPROC stops fork and the kit's private files
                (mode 0700 folders) are out of reach; the network is not.
    basic       rlimits only: the student's code can read what the grader can read
                and use the network; run by root, no isolation at all (it runs as root:
                its note says so). What it starts and orphans is killed all the same
                (sandbox.py: the grading process is a child subreaper).

AUTOGRADER_SANDBOX=basic|uid|bubblewrap insists on a level: SandboxUnavailable
(a ConfigError: one line) when it can't be had. Every probe is a real run of the
child's interpreter under that level, made once per process and interpreter.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from autograder.config import ConfigError
from autograder.runner.packages import ONE_THREAD, link_folder, others_can_read
from autograder.runner.sandbox import CHILD_MAIN, Limits, kill_session, set_limits

ENV = "AUTOGRADER_SANDBOX"
NAMES = ("bubblewrap", "uid", "basic")   # best first
NOBODY = 65534                           # uid and gid the student's code runs as, when the grader is root
PROBE_TIMEOUT = 10.0
# what the probe imports: everything the child (main.py, student.py, observe.py, programs/) does
PROBE_CODE = ("import importlib.abc, importlib.machinery, importlib.util, io, json, os, sys, traceback, types; "
              "open(sys.argv[1], 'rb').close(); print('ok', os.getuid())")


class SandboxUnavailable(ConfigError):
    """AUTOGRADER_SANDBOX names a level this machine can't give (or no level): one line."""


def interpreter() -> str:
    """The child's Python: the real executable, not a venv's symlink (`-I -S` ignores the venv)."""
    return os.path.realpath(sys.executable)


@dataclass
class Launch:
    """How to start one child: what Popen needs, and the student's folder as the child sees it."""
    argv: list[str]
    cwd: str
    env: dict[str, str]
    preexec: Callable[[], None]
    student_root: str
    pass_fds: tuple[int, ...] = ()
    site: str | None = None  # the folder of the allowed packages as the child sees it (packages.py)
    close_after_start: list[int] = field(default_factory=list)  # the parent's copies of fds passed on


def child_argv(python: str, main: str, job_fd: int, result_fd: int, programs: str | None) -> list[str]:
    argv = [python, "-I", "-S", main, "--job-fd", str(job_fd), "--result-fd", str(result_fd)]
    return argv + (["--programs", programs] if programs is not None else [])


class Level:
    """The "basic" level; the others change how the child is started, ended and read."""
    name = "basic"

    def __init__(self, why: str = ""):
        self.why = why  # why this level and not a better one: for the note

    def launch(self, *, limits: Limits, cpu: int, home: str, student_root: str,
               programs_dir: str | None, job_fd: int, result_fd: int, packages: tuple[str, ...] = ()) -> Launch:
        """packages: the real paths of the allowed packages to show the child (packages.py)."""
        return Launch(
            argv=child_argv(interpreter(), str(CHILD_MAIN), job_fd, result_fd, programs_dir),
            cwd=home, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, **ONE_THREAD},
            preexec=lambda: set_limits(limits, cpu), student_root=student_root, pass_fds=(job_fd, result_fd),
            site=link_folder(os.path.join(home, "site"), packages))

    def exit_status(self, returncode: int) -> int:
        """The child's exit status as Popen gives it (negative: the signal)."""
        return returncode

    def kill(self, pid: int) -> None:
        """Kill the child and everything it started; `pid` is its session's leader, not yet reaped."""
        kill_session(pid)

    def note(self) -> str | None:
        """One line for RunResult.notes about what this level does not protect, or None."""
        if os.geteuid() == 0:  # said plainly: nothing is refused, but nothing is held either
            return (f"sandbox: basic ({self.why or 'no bubblewrap'}): no isolation: student code runs as root "
                    "and can read and change any file, use the network and signal any process; "
                    "install bubblewrap for isolation")
        return (f"sandbox: basic ({self.why or 'no bubblewrap, not root'}): student code can read files "
                "and use the network; install bubblewrap for isolation")


class UidLevel(Level):
    """Root without bubblewrap: the child runs as nobody, on a copy of the submission it can read."""
    name = "uid"

    def launch(self, *, limits, cpu, home, student_root, programs_dir, job_fd, result_fd, packages=()):
        # home (root's, 0700) -> 0711; in it the submission, root's and read-only for nobody,
        # and nobody's own working folder
        os.chmod(home, 0o711)
        submission = os.path.join(home, "submission")
        if os.path.isdir(student_root):
            shutil.copytree(student_root, submission, symlinks=True, ignore=_special_files)
        else:  # none: the child says the files are missing, as at the other levels
            os.mkdir(submission)
        _open_up(submission)
        work = os.path.join(home, "work")
        os.mkdir(work, 0o700)
        os.chown(work, NOBODY, NOBODY)

        self.unreadable = sorted(os.path.basename(p) for p in packages if not others_can_read(p))

        def preexec():
            drop_to_nobody()
            set_limits(limits, cpu)  # after the drop: RLIMIT_NPROC 0 bites now, and exec is not refused

        return Launch(
            argv=child_argv(interpreter(), str(CHILD_MAIN), job_fd, result_fd, programs_dir),
            cwd=work, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": work, "TMPDIR": work, **ONE_THREAD},
            preexec=preexec, student_root=submission, pass_fds=(job_fd, result_fd),
            site=link_folder(os.path.join(home, "site"), packages))

    def note(self):
        unreadable = getattr(self, "unreadable", ())
        return ("sandbox: uid (no bubblewrap): student code runs as nobody and can't fork, but can read "
                "world-readable files, write world-writable ones (/tmp) and use the network; "
                "install bubblewrap for isolation"
                + (f"; nobody can't read the allowed {', '.join(unreadable)} where the grader's is installed, "
                   "so student code can't import it: install the grader outside /root" if unreadable else ""))


def drop_to_nobody() -> None:
    """Between fork and exec, as root: become uid/gid 65534 with no supplementary groups."""
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def _special_files(folder: str, names: list[str]) -> list[str]:
    """What copytree must leave out: FIFOs, sockets, devices (reading a FIFO would hang)."""
    import stat
    special = []
    for name in names:
        try:
            mode = os.lstat(os.path.join(folder, name)).st_mode
        except OSError:
            special.append(name)
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            special.append(name)
    return special


def _open_up(folder: str) -> None:
    """Folders 0755, files 0644 (executables 0755): readable by nobody, writable by root only."""
    os.chmod(folder, 0o755)
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            if os.path.islink(path):
                continue
            mode = os.stat(path).st_mode
            os.chmod(path, 0o755 if os.path.isdir(path) or mode & 0o100 else 0o644)


# -- choosing -------------------------------------------------------------------------------

def current() -> Level:
    """The level to use now: the one AUTOGRADER_SANDBOX insists on, or the best available."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted and wanted not in NAMES:
        raise SandboxUnavailable(f"{ENV}={wanted}: not a sandbox level; use one of {', '.join(NAMES)}")
    if wanted:
        level, why = _get(wanted, interpreter())
        if level is None:
            raise SandboxUnavailable(f"{ENV}={wanted}: {why}")
        if wanted == "basic":
            return Level(f"{ENV}=basic")
        return level
    return best()


def best() -> Level:
    """The best level that passes its probe (cached per process and interpreter)."""
    return _best(interpreter())


@functools.lru_cache(maxsize=None)
def _best(python: str) -> Level:
    why_not = []
    for name in NAMES[:-1]:
        level, why = _get(name, python)
        if level is not None:
            return level
        why_not.append(why)
    return Level(_basic_why(why_not))


def _basic_why(why_not: list[str]) -> str:
    bwrap_why, uid_why = why_not
    bwrap_part = "no bubblewrap" if bwrap_why.startswith("no bwrap") else "bubblewrap failed its test run"
    uid_part = "not root" if uid_why == "not root" else "nobody can't run this Python"
    return f"{bwrap_part}, {uid_part}"


@functools.lru_cache(maxsize=None)
def _get(name: str, python: str) -> tuple[Level | None, str]:
    """(the level, "") if it works here, else (None, why not)."""
    if name == "basic":
        return Level(), ""
    if name == "uid":
        return _probe_uid(python)
    from autograder.runner.bwrap import probe
    return probe(python)


def _probe_uid(python: str) -> tuple[Level | None, str]:
    if os.geteuid() != 0:
        return None, "not root"
    try:
        done = subprocess.run([python, "-I", "-S", "-c", PROBE_CODE, str(CHILD_MAIN)], cwd="/",
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=PROBE_TIMEOUT, preexec_fn=drop_to_nobody)
    except (OSError, subprocess.SubprocessError) as err:
        return None, f"uid {NOBODY} can't run {python}: {err}"
    if done.returncode != 0 or done.stdout.split() != [b"ok", str(NOBODY).encode()]:
        return None, f"uid {NOBODY} can't run {python} and read {CHILD_MAIN}: {_last_line(done.stderr)}"
    return UidLevel(), ""


def _last_line(data: bytes) -> str:
    """The last line of a process's stderr (its error), shortened."""
    lines = data.decode("utf-8", "replace").strip().splitlines()
    return lines[-1][:200] if lines else "no message"


def empty_folder() -> tempfile.TemporaryDirectory:
    """A stand-in submission for probes."""
    folder = tempfile.TemporaryDirectory(prefix="backprop-probe-")
    Path(folder.name, "micrograd").mkdir()
    return folder
