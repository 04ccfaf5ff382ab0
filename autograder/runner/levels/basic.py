"""The basic sandbox level, and what every level is made of: how a child is launched.

A Level starts, ends and describes the child; the basic one uses rlimits only.
levels/__init__.py chooses among the levels (basic, uid, bubblewrap); bwrap/ is the
strongest. This module depends on neither, so they can both build on it.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from autograder.runner import keyring, seccomp
from autograder.runner.parent_death import dier
from autograder.runner.packages import ONE_THREAD, link_folder
from autograder.runner.kill import kill_session
from autograder.runner.limits import Limits, set_limits
from autograder.runner.sandbox import CHILD_MAIN

NOBODY = 65534                           # uid and gid the student's code runs as, when the grader is root
PROBE_TIMEOUT = 10.0
# what the probe imports: everything the child (main.py, student.py, observe.py, programs/) does
PROBE_CODE = ("import importlib.abc, importlib.machinery, importlib.util, io, json, os, sys, traceback, types; "
              "open(sys.argv[1], 'rb').close(); print('ok', os.getuid())")


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
    finish: Callable[[], None] | None = None  # what the level clears once the child is killed and reaped
    spawn: Callable[[], object] | None = None  # the child already started (levels/zygote/level.Forked), not argv's


def child_argv(python: str, main: str, job_fd: int, result_fd: int, programs: str | None) -> list[str]:
    argv = [python, "-I", "-S", main, "--job-fd", str(job_fd), "--result-fd", str(result_fd)]
    return argv + (["--programs", programs] if programs is not None else [])


class Level:
    """The "basic" level; the others change how the child is started, ended and read."""
    name = "basic"

    def __init__(self, why: str = ""):
        self.why = why  # why this level and not a better one: for the note
        self.keys = seccomp.keys_filter()  # kernel keyrings refused (the other levels' filters refuse them too)

    def needs_home(self) -> bool:
        """Is the child's home (sandbox.child_home: a folder in the temporary folder) made for `launch`? A
        level that can do without one is given None, and makes one itself where it must."""
        return True

    def launch(self, *, limits: Limits, cpu: int, home: str, student_root: str,
               programs_dir: str | None, job_fd: int, result_fd: int, packages: tuple[str, ...] = ()) -> Launch:
        """packages: the real paths of the allowed packages to show the child (packages.py)."""
        join, die_with_parent = keyring.joiner(), dier()
        install = seccomp.installer(self.keys) if self.keys is not None else None

        def preexec():
            die_with_parent()  # the grading thread's death ends it (parent_death.py)
            set_limits(limits, cpu)
            join()  # a session keyring of its own, then no keyring call at all
            if install is not None:
                install()

        return Launch(
            argv=child_argv(interpreter(), str(CHILD_MAIN), job_fd, result_fd, programs_dir),
            cwd=home, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, **ONE_THREAD},
            preexec=preexec, student_root=student_root, pass_fds=(job_fd, result_fd),
            site=link_folder(os.path.join(home, "site"), packages))

    def exit_status(self, returncode: int) -> int:
        """The child's exit status as Popen gives it (negative: the signal)."""
        return returncode

    def kill(self, pid: int, wait: bool = True) -> None:
        """Kill the child and everything it started; `pid` is its session's leader, not yet reaped. `wait`
        False: the caller keeps no exit status, and a level may leave what follows the kill to run on
        (levels/zygote: its namespace's teardown)."""
        kill_session(pid)

    def note(self) -> str | None:
        """One line for RunResult.notes about what this level does not protect, or None."""
        if os.geteuid() == 0:  # said plainly: nothing is refused, but nothing is held either
            return (f"sandbox: basic ({self.why or 'no bubblewrap'}): no isolation: student code runs as root "
                    "and can read and change any file, use the network and signal any process; "
                    "install bubblewrap for isolation")
        return (f"sandbox: basic ({self.why or 'no bubblewrap, not root'}): student code can read files "
                "(the installed packages beyond the allowed ones too: only an import hook refuses them) "
                "and use the network; install bubblewrap for isolation")


def special_files(folder: str, names: list[str]) -> list[str]:
    """What copytree must leave out: FIFOs, sockets, devices (reading a FIFO would hang)."""
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


def open_up(folder: str) -> None:
    """Folders 0755, files 0644 (executables 0755): readable by nobody, writable by root only."""
    os.chmod(folder, 0o755)
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            if os.path.islink(path):
                continue
            mode = os.stat(path).st_mode
            wanted = 0o755 if stat.S_ISDIR(mode) or mode & 0o100 else 0o644
            if stat.S_IMODE(mode) != wanted:  # a hard link to a 0644 file (zygote/level.link_or_copy) is left as it is
                os.chmod(path, wanted)


def last_line(data: bytes) -> str:
    """The last line of a process's stderr (its error), shortened."""
    lines = data.decode("utf-8", "replace").strip().splitlines()
    return lines[-1][:200] if lines else "no message"


def empty_folder() -> tempfile.TemporaryDirectory:
    """A stand-in submission for probes."""
    folder = tempfile.TemporaryDirectory(prefix="backprop-probe-")
    Path(folder.name, "micrograd").mkdir()
    return folder
