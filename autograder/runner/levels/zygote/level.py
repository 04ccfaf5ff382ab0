"""The bubblewrap level started through a zygote (zygote.py): its launch, its child's handle, its kill.

AUTOGRADER_ZYGOTE=0 turns it off: every child then starts the plain bubblewrap way.
"""
from __future__ import annotations

import atexit
import errno
import itertools
import os
import select
import shutil
import stat
import sys
import threading

from autograder.runner.levels.bwrap.level import PROGRAMS_DIR, SITE_DIR, SUBMISSION, BubblewrapLevel
from autograder.runner.kill import pidfd
from autograder.runner.levels.basic import Launch, Level, open_up, special_files
from autograder.runner.limits import Limits, rlimit_values
from autograder.runner.levels.zygote import staging
from autograder.runner.levels.zygote.zygote import Zygote, ZygoteFailed
from autograder.runner.sandbox import child_home, remove_child_home

_STAGED = itertools.count(1)  # the names of the submissions' copies in a zygote's staging folder: s1, s2...

ENV = "AUTOGRADER_ZYGOTE"


def wanted() -> bool:
    return os.environ.get(ENV, "").strip() != "0"


def stage(student_root: str, copy: str, link: bool = True) -> None:
    """The submission in the staging folder, readable by uid 65534 (an empty folder when there is none:
    the child says the files are missing). Its files are hard links where they can be (link_or_copy), or
    copies (`link` False: a staging folder in memory, where the grader's prepared copy is too, grading.py)."""
    if os.path.isdir(student_root):
        copy_function = link_or_copy if link else copy_file
        shutil.copytree(student_root, copy, symlinks=True, ignore=special_files, copy_function=copy_function)
        open_up(copy)
    else:
        os.mkdir(copy, 0o755)


def copy_file(source: str, target: str) -> str:
    """A copy (link_or_copy's without the link): no inode of the grader's shared with the child."""
    return link_or_copy(source, target, link=False)


def link_or_copy(source: str, target: str, link: bool = True) -> str:
    """A hard link to a regular file open_up leaves as it is (0644, or 0755): no copy to write. The child reads
    the inode through its read-only bind of the staging folder and can't write, chmod or link it there (the
    folder's mount is read-only, its /tmp another filesystem), nor reach the grader's name for it. Where the
    staging folder is on another filesystem (in memory: staging.py), or `link` is False, a copy of such a file
    with its mode, and no other system call. A copy with its metadata for any other file (open_up would change the grader's
    file's mode)."""
    try:
        mode = os.lstat(source).st_mode
        if stat.S_ISREG(mode) and stat.S_IMODE(mode) in (0o644, 0o755):
            if link:
                try:
                    os.link(source, target)
                    return target
                except OSError as err:
                    if err.errno != errno.EXDEV:
                        raise
            shutil.copyfile(source, target)
            if stat.S_IMODE(os.stat(target).st_mode) != stat.S_IMODE(mode):  # a umask other than 022
                os.chmod(target, stat.S_IMODE(mode))
            return target
    except OSError:
        pass
    return shutil.copy2(source, target)


class Forked:
    """A submission's process forked by the zygote, as subprocess.Popen shows a bwrap child: pid (the
    process running main.py), stdout, stderr, returncode, wait(); ended by `end` (its pid 1 killed)."""

    def __init__(self, zygote: Zygote, ident: str, init_pid: int, pid: int, stdout: int, stderr: int):
        self.zygote, self.ident, self.pid = zygote, ident, pid
        self.returncode: int | None = None
        self.stdout, self.stderr = open(stdout, "rb", buffering=0), open(stderr, "rb", buffering=0)
        self.init_fd = pidfd(init_pid)  # readable once pid 1 has ended: after the process, with its status
        self.own_fd = pidfd(pid)  # the student's process: killed with pid 1 where its reap is not waited for

    def exited(self, wait: float = 0.0) -> bool:
        """Has the submission ended (its pid 1 too, so that its exit status is the process's)?"""
        if self.returncode is not None or self.init_fd is None:
            return True
        return bool(select.select([self.init_fd], [], [], wait)[0])

    def end(self, wait: bool = True) -> None:
        """Kill its pid 1 (the kernel ends the rest) and reap it; again is harmless. `wait` False (the caller
        keeps no exit status): where pid 1 still runs, it and the student's process are killed here, and the
        zygote reaps them while the grader goes on (Zygote.reap_later); the status is then the kill's, -9."""
        if self.returncode is None:
            fds = [fd for fd in (self.init_fd, self.own_fd) if fd is not None]
            try:
                if not wait and len(fds) == 2 and not self.exited() and self.zygote.reap_later(self.ident, fds):
                    status = -9
                else:
                    status = self.zygote.reap(self.ident)
            except (ZygoteFailed, ValueError):
                self.zygote.stop()  # the namespace ends with the zygote's
                status = None
            self.returncode = -9 if status is None else status
        for name in ("init_fd", "own_fd"):
            if getattr(self, name) is not None:
                os.close(getattr(self, name))
                setattr(self, name, None)

    def wait(self) -> int:
        self.end()
        return self.returncode


def _at_exit(stop) -> None:
    """Run `stop` when this process ends: a multiprocessing worker's end runs its Finalize hooks (it skips
    atexit's); a process that never imported multiprocessing (a student's check) has atexit's, without
    paying multiprocessing's import. A worker always has multiprocessing imported before it grades."""
    if "multiprocessing" in sys.modules:
        from multiprocessing.util import Finalize

        Finalize(stop.__self__, stop, exitpriority=10)
    else:
        atexit.register(stop)


class ZygoteLevel(Level):
    """The bubblewrap level (the same isolation per child, see zygote.py), children forked by a zygote."""
    name = "bubblewrap"

    def __init__(self, bwrap: BubblewrapLevel):
        super().__init__(bwrap.why)
        self.bwrap = bwrap
        self.zygotes: dict[tuple, Zygote] = {}
        self.live: dict[int, Forked] = {}
        self.lock = threading.Lock()
        self.failed = ""  # why the last zygote could not start or fork

    def _zygote(self, programs_dir: str | None, packages: tuple[str, ...]) -> Zygote | None:
        # a forked grading process starts its own, and so does each thread: a zygote forks one submission at
        # a time, so that no two share its network namespace (loopback, abstract sockets) at once
        key = (os.getpid(), threading.get_ident(), programs_dir, packages)
        with self.lock:
            zygote = self.zygotes.get(key)
            if zygote is not None and not zygote.alive():
                zygote.stop()
                zygote = None
            if zygote is None:
                try:
                    zygote = self.zygotes[key] = Zygote(self.bwrap, programs_dir, packages)
                    # its staging folder removed at exit, a pool's worker's too (bwrap dies with us anyway)
                    _at_exit(zygote.stop)
                except OSError as err:
                    self.failed = str(err)
                    return None
            return zygote

    def warm(self, programs_dir: str | None, packages: tuple[str, ...]) -> None:
        """Start this thread's zygote for these programs and packages now, if it is not running: its bwrap and
        interpreter boot while the caller does other work, and the first launch forks at once (runner/warm.py)."""
        if wanted():
            self._zygote(programs_dir, packages)

    def needs_home(self) -> bool:
        """A forked child's /tmp is a fresh tmpfs, and its submission is staged under a name of the zygote's:
        no home is made for it (three folders and a file fewer in the temporary folder, each submission). Where
        the child starts the plain bubblewrap way after all, `launch` makes one."""
        return not wanted()

    def launch(self, *, limits: Limits, cpu: int, home: str | None, student_root: str,
               programs_dir: str | None, job_fd: int, result_fd: int, packages: tuple[str, ...] = ()) -> Launch:
        options = dict(limits=limits, cpu=cpu, home=home, student_root=student_root, programs_dir=programs_dir,
                       job_fd=job_fd, result_fd=result_fd, packages=packages)
        zygote = self._zygote(programs_dir, packages) if wanted() else None
        if zygote is None:
            return self._bwrap_launch(options)
        copy = os.path.join(zygote.staging, os.path.basename(home) if home else f"s{next(_STAGED)}")
        try:
            # in memory, the prepared copy (grading.py) is on the staging folder's filesystem: copied, not linked,
            # so that no file the grader reads again (repair copies them) is an inode the
            # child has had open; a copy there costs memory only (benchmarks/staging_cost.py)
            stage(student_root, copy, link=not staging.in_memory(zygote.staging))
        except OSError as err:  # no room for its copy (the staging folder in memory): the plain bubblewrap way
            shutil.rmtree(copy, ignore_errors=True)
            self.failed = f"the submission could not be staged: {err}"
            return self._bwrap_launch(options)
        try:
            forked = self._fork(zygote, copy, limits, cpu, programs_dir, job_fd, result_fd)
        except (ZygoteFailed, ValueError) as err:
            self.failed = str(err)
            zygote.stop()
            shutil.rmtree(copy, ignore_errors=True)
            return self._bwrap_launch(options)
        self.live[forked.pid] = forked
        return Launch(argv=[], cwd="/", env={}, preexec=lambda: None, student_root=SUBMISSION,
                      site=SITE_DIR if packages else None, spawn=lambda: forked,
                      finish=lambda: shutil.rmtree(copy, ignore_errors=True))

    def _bwrap_launch(self, options: dict) -> Launch:
        """The plain bubblewrap way, with a home of its own made here when the caller made none (needs_home), and
        removed with what that launch clears."""
        if options["home"] is not None:
            return self.bwrap.launch(**options)
        home = child_home()
        try:
            launch = self.bwrap.launch(**{**options, "home": home})
        except BaseException:
            remove_child_home(home)
            raise
        finish = launch.finish
        launch.finish = lambda: ((finish() if finish is not None else None), remove_child_home(home))
        return launch

    @staticmethod
    def _fork(zygote: Zygote, copy: str, limits: Limits, cpu: int, programs_dir, job_fd: int,
              result_fd: int) -> Forked:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        argv = ["--job-fd", "3", "--result-fd", "4"] + (["--programs", PROGRAMS_DIR] if programs_dir else [])
        try:
            ident, init_pid, pid = zygote.fork(os.path.basename(copy), [job_fd, result_fd, out_w, err_w],
                                               rlimit_values(limits, cpu, nproc=False), argv)
        except BaseException:
            os.close(out_r), os.close(err_r)
            raise
        finally:
            os.close(out_w), os.close(err_w)
        return Forked(zygote, ident, init_pid, pid, out_r, err_r)

    def kill(self, pid: int, wait: bool = True) -> None:
        forked = self.live.pop(pid, None)
        if forked is None:
            self.bwrap.kill(pid)
        else:
            forked.end(wait)

    def exit_status(self, returncode: int) -> int:
        return self.bwrap.exit_status(returncode)

    def note(self) -> str | None:
        return self.bwrap.note()
