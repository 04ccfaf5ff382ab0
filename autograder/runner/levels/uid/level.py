"""The "uid" level: root without bubblewrap (a Gradescope or PrairieLearn container).

The child runs chrooted in a root of its Python, standard library and allowed packages only (chroot.py),
as a uid of its own among the children running (uids.py), with sockets, IPC objects and kernel keyrings
refused (seccomp.ipc_filter) and RLIMIT_NPROC 0 (no fork). What it guarantees: levels/__init__.py's doc,
README's "The sandbox"; its tests: tests/runner/levels/uid/.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from autograder.runner import keyring, seccomp
from autograder.runner.levels.basic import (
    PROBE_CODE, PROBE_TIMEOUT, Launch, Level, child_argv, empty_folder, interpreter, last_line, special_files,
)
from autograder.runner.levels.uid import chroot, uids
from autograder.runner.limits import Limits, set_limits
from autograder.runner.packages import ONE_THREAD
from autograder.runner.parent_death import dier
from autograder.runner.sandbox import CHILD_MAIN


class UidLevel(Level):
    """Root without bubblewrap: the child runs chrooted in a root of its Python, standard library and
    allowed packages only (chroot.py), as a uid of its own among the children running (uids.py), with
    sockets and IPC objects refused (seccomp.ipc_filter) and RLIMIT_NPROC 0 (no fork)."""
    name = "uid"

    def __init__(self, why: str = "", root: str | None = None):
        super().__init__(why)
        self.root = root  # the root the probe made (for the packages of the probe: none)
        self.ipc = seccomp.ipc_filter()

    def launch(self, *, limits, cpu, home, student_root, programs_dir, job_fd, result_fd, packages=()):
        root = chroot.root_for(interpreter(), tuple(packages))
        slot = uids.take(uids.lock_dir(Path(chroot.roots_dir()) / "uids"))
        try:
            uids.clear_left(os.path.join(root, chroot.RUN_DIR), slot.uid)
            own = tempfile.mkdtemp(prefix="child-", dir=os.path.join(root, chroot.RUN_DIR))
            inside = "/" + os.path.relpath(own, root)
            self.prepare(own, slot.uid, student_root, programs_dir)
        except BaseException:
            uids.release(slot)
            raise
        install = seccomp.installer(self.ipc) if self.ipc is not None else None
        join, die_with_parent = keyring.joiner(), dier()

        def preexec():
            os.chroot(root)
            os.chdir(f"{inside}/work")
            join()  # a session keyring of its own (none of the grader's), then no keyring call at all
            drop_to(slot.uid)
            die_with_parent()  # after the drop, which clears it: the grading thread's death ends it
            set_limits(limits, cpu)  # after the drop: RLIMIT_NPROC 0 bites now, and exec is not refused
            if install is not None:
                install()

        def finish():
            shutil.rmtree(own, ignore_errors=True)
            uids.release(slot)

        programs = None if programs_dir is None else f"{inside}/programs"
        return Launch(
            argv=child_argv(interpreter(), f"{inside}/child/{CHILD_MAIN.name}", job_fd, result_fd, programs),
            cwd=os.path.join(own, "work"),
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": f"{inside}/work", "TMPDIR": f"{inside}/work",
                 **ONE_THREAD},
            preexec=preexec, student_root=f"{inside}/submission", pass_fds=(job_fd, result_fd),
            site=chroot.SITE_DIR if packages else None, finish=finish)

    @staticmethod
    def prepare(own: str, uid: int, student_root: str, programs_dir: str | None) -> None:
        """The child's own folder in the root: root's, entered by its gid alone (0710); in it the child's
        code, the case programs and the submission, read-only to that gid, and its working folder, its own."""
        os.chown(own, 0, uid)
        os.chmod(own, 0o710)
        shutil.copytree(CHILD_MAIN.parent, os.path.join(own, "child"))  # its __pycache__ too: a quicker start
        if programs_dir is not None:
            shutil.copytree(programs_dir, os.path.join(own, "programs"), ignore=shutil.ignore_patterns("__pycache__"))
        submission = os.path.join(own, "submission")
        if os.path.isdir(student_root):
            shutil.copytree(student_root, submission, symlinks=True, ignore=special_files)
        else:  # none: the child says the files are missing, as at the other levels
            os.mkdir(submission)
        for folder in ("child", "programs", "submission"):
            if os.path.isdir(os.path.join(own, folder)):
                share_with_group(os.path.join(own, folder), uid)
        work = os.path.join(own, "work")
        os.mkdir(work, 0o700)
        os.chown(work, uid, uid)

    def note(self):
        refused = "fork, sockets, IPC objects or kernel keys" if self.ipc is not None else \
            "fork (sockets, IPC objects and kernel keys are open: no seccomp filter for this machine)"
        return ("sandbox: uid (no bubblewrap): student code runs chrooted (its Python, the standard library "
                f"and the allowed packages only), as a uid of its own, without {refused}; it shares the "
                "kernel and the PID space with the grader (no namespaces): install bubblewrap for full isolation")


def drop_to(uid: int) -> None:
    """Between fork and exec, as root: become uid/gid `uid` with no supplementary groups."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def share_with_group(folder: str, gid: int) -> None:
    """A tree root owns, readable by group `gid` alone (folders 0750, files 0640, executables 0750)."""
    for parent, dirs, files in os.walk(folder):
        os.chown(parent, 0, gid)
        os.chmod(parent, 0o750)
        for name in files:
            path = os.path.join(parent, name)
            if not os.path.islink(path):
                os.chown(path, 0, gid)
                os.chmod(path, 0o750 if os.stat(path).st_mode & 0o100 else 0o640)


def probe(python: str) -> tuple[Level | None, str]:
    """A real launch of the level (its root made, chroot, a uid of its own, the seccomp filter) running the
    child's imports."""
    if os.geteuid() != 0:
        return None, "not root"
    level = UidLevel()
    read, write = os.pipe()
    launch = None
    try:
        with empty_folder() as submission:
            launch = level.launch(limits=Limits(), cpu=Limits().cpu_seconds(1), home=submission,
                                  student_root=submission, programs_dir=None, job_fd=read, result_fd=write)
        main = launch.argv[launch.argv.index("-S") + 1]
        done = subprocess.run([launch.argv[0], "-I", "-S", "-c", PROBE_CODE, main], cwd=launch.cwd,
                              env=launch.env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=PROBE_TIMEOUT, preexec_fn=launch.preexec)
    except (OSError, subprocess.SubprocessError) as err:
        return None, f"the uid level's test run failed: {err}"
    finally:
        os.close(read)
        os.close(write)
        if launch is not None:
            launch.finish()
    words = done.stdout.split()
    if done.returncode != 0 or len(words) != 2 or words[0] != b"ok" or not words[1].isdigit() or \
            not uids.FIRST <= int(words[1]) < uids.FIRST + uids.COUNT:
        return None, f"the uid level's test run failed: {last_line(done.stderr)}"
    return level, ""
