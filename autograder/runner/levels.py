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
                (cleanup.py: the grading process is a child subreaper).

AUTOGRADER_SANDBOX=basic|uid|bubblewrap insists on a level: SandboxUnavailable
(a ConfigError: one line) when it can't be had. Every probe is a real run of the
child's interpreter under that level, made once per process and interpreter.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess

from autograder.config import ConfigError
from autograder.runner.bwrap_probe import probe as probe_bubblewrap
from autograder.runner.level import (  # noqa: F401  (Launch, Level, interpreter: the levels' API, re-exported)
    NOBODY, PROBE_CODE, PROBE_TIMEOUT, Launch, Level, child_argv, interpreter, last_line, open_up,
    special_files,
)
from autograder.runner.packages import ONE_THREAD, link_folder, others_can_read
from autograder.runner.limits import set_limits
from autograder.runner.sandbox import CHILD_MAIN

ENV = "AUTOGRADER_SANDBOX"
NAMES = ("bubblewrap", "uid", "basic")   # best first


class SandboxUnavailable(ConfigError):
    """AUTOGRADER_SANDBOX names a level this machine can't give (or no level): one line."""


class UidLevel(Level):
    """Root without bubblewrap: the child runs as nobody, on a copy of the submission it can read."""
    name = "uid"

    def launch(self, *, limits, cpu, home, student_root, programs_dir, job_fd, result_fd, packages=()):
        # home (root's, 0700) -> 0711; in it the submission, root's and read-only for nobody,
        # and nobody's own working folder
        os.chmod(home, 0o711)
        submission = os.path.join(home, "submission")
        if os.path.isdir(student_root):
            shutil.copytree(student_root, submission, symlinks=True, ignore=special_files)
        else:  # none: the child says the files are missing, as at the other levels
            os.mkdir(submission)
        open_up(submission)
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
    return probe_bubblewrap(python)


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
        return None, f"uid {NOBODY} can't run {python} and read {CHILD_MAIN}: {last_line(done.stderr)}"
    return UidLevel(), ""
