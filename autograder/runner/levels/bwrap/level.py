"""The "bubblewrap" level: the child runs inside `bwrap`, one sandbox per child (not per case).

What the student's code sees and can do:
- namespaces of its own: no network but a loopback of its own, its own PID space (when
  its pid 1 dies the kernel kills the rest), IPC, UTS, cgroup; a user namespace, and
  none further (see below);
- a read-only view of /usr (/bin, /lib... as on the host), /etc/ld.so.cache, the Python
  installation, the child's folder (/grader/child), the case programs when they are not
  the child's own (/grader/programs), the allowed packages (/grader/site: numpy, not the
  rest of site-packages) and the submission (/submission); every folder of installed
  packages in what is bound (site-packages, dist-packages: packages.installed_dirs) an
  empty read-only tmpfs, so that only the standard library and the allowed packages exist
  there as files, whatever the student's code puts on sys.path; a fresh /proc and
  /dev; a private /tmp (a small tmpfs) as its working folder and HOME, the only place it
  can write (bwrap's root is remounted read-only); nothing else:
  not the kit, not the output folder, not other submissions, not /work, /root or /home;
- its uid, when the grader is root ("own uid" below): 65534 (nobody) inside and on the
  host, without capabilities (an empty bounding set too) and supplementary groups;
  when it is not root: uid 65534 inside, the grader's own uid outside;
- a seccomp filter against new processes (fork, vfork and clone without CLONE_THREAD
  fail with EPERM; clone3 with ENOSYS, so threads fall back to clone) and kernel keyrings
  (add_key, request_key, keyctl: EPERM) on x86_64 and aarch64; elsewhere fork works but
  stays in the PID namespace;
- a session keyring of its own, joined before bwrap starts (keyring.py): none of the
  grader's keys, none of another child's;
- no_new_privs, a session of its own (--new-session: no TIOCSTI);
- the rlimits of the other levels, but RLIMIT_NPROC: bwrap forks twice itself (and a
  limit set before the uid changes would make the exec of Python fail).

Own uid, for a grader run as root. bwrap run by root maps the sandbox's uid to root's
(bwrap is not setuid then, and maps the one uid of its caller), and bwrap run as nobody
could not bind what only root can reach (the Python installation may live under /root,
mode 0700: bwrap resolves every bind's source, even --ro-bind-fd's, by its path, as its
caller). So the grading process makes a user namespace of its own, once (own_userns):
host uids 0 and 65534 mapped to themselves, user namespaces disabled inside
(user.max_user_namespaces = 0 in it). bwrap, still root, joins it (--userns), binds
what it binds as root, and runs `setpriv` with CAP_SETUID/SETGID/SETPCAP only, which
becomes uid/gid 65534 (host 65534), clears the groups, the bounding set and every other
capability, and execs the child's Python. The folders bwrap makes for the binds are
0755 (--perms, --dir), /tmp 1777; the submission is a copy that nobody can read (as at
the "uid" level). The probe checks the uid outside from the child's /proc/self/uid_map.
Where that can't be had (no `setpriv`, an older bwrap, a kernel that refuses), the
sandbox is bwrap's own user namespace as before: uid 65534 inside, root's uid 0 outside
without capabilities, and the level's note says so.

bwrap reports a child killed by signal N as exit status 128 + N: exit_status undoes it.
Killing: SIGKILL to bwrap's process group (bwrap and the namespace's pid 1), then a
wait until pid 1 is gone, which the kernel allows only once every process in the
namespace is. Nothing of the child's can be outside the namespace, so /proc is not
scanned for its session (kill.kill_session) unless bwrap is still running without a
pid 1 (killed before it made the namespace).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from autograder.runner.levels.basic import NOBODY, Launch, Level, child_argv, open_up, special_files
from autograder.runner.packages import ONE_THREAD, installed_dirs
from autograder.runner.keyring import joiner
from autograder.runner.seccomp import fork_filter
from autograder.runner.levels.bwrap.userns import UserNamespace, under
from autograder.runner.cleanup import children_of
from autograder.runner.kill import has_ended, kill_group, kill_session, pidfd, wait_readable
from autograder.runner.limits import Limits, set_limits
from autograder.runner.sandbox import CHILD_MAIN

CHILD_DIR = "/grader/child"
PROGRAMS_DIR = "/grader/programs"
SITE_DIR = "/grader/site"        # the allowed packages (packages.py), on the child's sys.path
SUBMISSION = "/submission"
WORK = "/tmp"                    # the working folder and HOME, a tmpfs
TMPFS_MB = 64
KILL_WAIT = 5.0                  # seconds to wait for the namespace to empty after the kill
ROOT_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


# what setpriv keeps of bwrap's capabilities for the switch to uid 65534, then drops with the rest
SWITCH_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")


class BubblewrapLevel(Level):
    name = "bubblewrap"

    def __init__(self, bwrap: str, python: str, features: frozenset[str], userns: UserNamespace | None = None):
        super().__init__()
        self.bwrap, self.python, self.features = bwrap, python, features
        self.userns = userns  # set: the child's own uid (see the module's doc); None: bwrap's user namespace
        self.seccomp = fork_filter()
        self.join_keyring = joiner()  # the sandbox's own session keyring, joined before bwrap starts
        self._installed: dict[tuple[str, ...], list[str]] = {}  # prefixes -> installed_dirs, made once

    def launch(self, *, limits: Limits, cpu: int, home: str, student_root: str,
               programs_dir: str | None, job_fd: int, result_fd: int, packages: tuple[str, ...] = ()) -> Launch:
        programs = PROGRAMS_DIR if programs_dir is not None else None
        command = child_argv(self.python, f"{CHILD_DIR}/{Path(CHILD_MAIN).name}", job_fd, result_fd, programs)
        if self.userns is not None:
            student_root = _readable_copy(student_root, os.path.join(home, "submission"))
        argv, fds = self.command(student_root, programs_dir, command, packages)
        return Launch(argv=argv, cwd="/", env={"PATH": "/usr/bin:/bin"}, preexec=self.preexec(limits, cpu),
                      student_root=SUBMISSION, pass_fds=(job_fd, result_fd) + tuple(fds) + self.own_fds(),
                      close_after_start=fds, site=SITE_DIR if packages else None)

    def preexec(self, limits: Limits, cpu: int):
        def preexec():
            set_limits(limits, cpu, nproc=False)
            self.join_keyring()
            if self.userns is not None:
                os.setgroups([])  # root's groups: none are carried into the sandbox
        return preexec

    def own_fds(self) -> tuple[int, ...]:
        """The fds bwrap needs that stay open after it starts (the user namespace's).

        bwrap does not close it: the child inherits it, an fd of the user namespace it is in
        anyway (as /proc/self/ns/user), where it has no capability to do anything with it."""
        return () if self.userns is None else (self.userns.fd,)

    def command(self, student_root: str, programs_dir: str | None,
                command: list[str], packages: tuple[str, ...] = ()) -> tuple[list[str], list[int]]:
        """bwrap's argv running `command`, and the fds (pipes' read ends) it reads its options from.

        The options go through a pipe (--args): /proc/1/cmdline in the sandbox shows no host paths.
        """
        fds = []
        try:
            seccomp_fd = None
            if self.seccomp is not None:
                fds.append(seccomp_fd := data_fd(self.seccomp))
            options = self.argv(student_root, programs_dir, seccomp_fd, packages)[1:]
            fds.append(args_fd := data_fd(b"".join(os.fsencode(arg) + b"\0" for arg in options)))
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        return [self.bwrap, "--args", str(args_fd), "--"] + self.switch() + command, fds

    def switch(self) -> list[str]:
        """What runs the command as uid/gid 65534 without capabilities, in own_userns; [] without it."""
        if self.userns is None:
            return []
        return [self.userns.setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--"]

    def argv(self, student_root: str, programs_dir: str | None, seccomp_fd: int | None,
             packages: tuple[str, ...] = (), caps: tuple[str, ...] = SWITCH_CAPS) -> list[str]:
        """bwrap and its options, up to the command (caps: those kept in the own user namespace)."""
        argv = [self.bwrap]
        if self.userns is not None:  # its own user namespace: every other namespace, but that one
            argv += ["--userns", str(self.userns.fd), "--unshare-ipc", "--unshare-pid", "--unshare-net",
                     "--unshare-uts", "--unshare-cgroup-try"]
            if "--assert-userns-disabled" in self.features:
                argv += ["--assert-userns-disabled"]
            argv += ["--cap-drop", "ALL"]
            for cap in caps:
                argv += ["--cap-add", cap]
        else:
            argv += ["--unshare-all"]
            if "--disable-userns" in self.features:
                argv += ["--unshare-user", "--disable-userns"]
            if os.geteuid() == 0:
                argv += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
        argv += ["--die-with-parent", "--new-session"]
        argv += ["--ro-bind", "/usr", "/usr"]
        for path in ROOT_LINKS:
            if os.path.islink(path):
                argv += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                argv += ["--ro-bind", path, path]
        argv += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        binds = [(path, path) for path in python_paths(self.python)]
        binds.append((str(Path(CHILD_MAIN).parent), CHILD_DIR))
        if programs_dir is not None:
            binds.append((str(programs_dir), PROGRAMS_DIR))
        binds += [(path, f"{SITE_DIR}/{os.path.basename(path)}") for path in packages]
        if self.userns is not None:  # uid 65534 must get through the folders bwrap makes for them
            argv += self.folders([dest for _, dest in binds] + [SUBMISSION])
        for source, dest in binds:
            argv += ["--ro-bind", source, dest]
        argv += self.masks(binds)
        argv += ["--proc", "/proc", "--dev", "/dev"]
        if self.userns is not None:
            argv += ["--perms", "1777"]
        if "--size" in self.features:
            argv += ["--size", str(TMPFS_MB << 20)]
        argv += ["--tmpfs", WORK]
        argv += ["--ro-bind-try", str(student_root), SUBMISSION]  # none: the child says the files are missing
        argv += ["--remount-ro", "/", "--chdir", WORK, "--clearenv"]
        for name, value in (("PATH", "/usr/bin:/bin"), ("LANG", "C.UTF-8"), ("HOME", WORK), ("TMPDIR", WORK),
                            *ONE_THREAD.items()):
            argv += ["--setenv", name, value]
        if seccomp_fd is not None:
            argv += ["--seccomp", str(seccomp_fd)]
        return argv

    def masks(self, binds: list[tuple[str, str]]) -> list[str]:
        """An empty read-only folder over every folder of installed packages in what is bound (/usr, the
        Python installation): only the standard library and the allowed packages exist in the sandbox
        as files, whatever the student's code puts on sys.path. (The allowed ones are bound from the
        host's paths, outside: a mask does not hide them.)"""
        argv = []
        prefixes = tuple(["/usr", "/usr/local"] + [dest for source, dest in binds if os.path.isdir(source)])
        if prefixes not in self._installed:  # a glob of the installation: once per level, not per child
            self._installed[prefixes] = installed_dirs(prefixes)
        for folder in self._installed[prefixes]:
            argv += (["--perms", "0755"] if self.userns is not None else []) + \
                ["--tmpfs", folder, "--remount-ro", folder]
        return argv

    @staticmethod
    def folders(dests: list[str]) -> list[str]:
        """--dir options making every folder above these mount points, mode 0755, parents first."""
        made: list[str] = []
        for dest in dests:
            parts = Path(dest).parts[1:-1]
            for i in range(len(parts)):
                folder = "/" + "/".join(parts[: i + 1])
                if folder not in made and not any(under(folder, p) for p in ("/usr",) + ROOT_LINKS):
                    made.append(folder)
        argv = []
        for folder in made:
            argv += ["--perms", "0755", "--dir", folder]
        return argv

    def exit_status(self, returncode: int) -> int:
        return -(returncode - 128) if 128 < returncode < 128 + 65 else returncode

    def kill(self, pid: int, wait: bool = True) -> None:
        waits = [fd for fd in map(pidfd, children_of(pid)) if fd is not None]
        try:
            # pid 1 is in bwrap's group, and with it the kernel ends the namespace; bwrap ends only after
            # pid 1 (one orphaned some other way comes to the subreaper: cleanup.sweep_orphans)
            if waits or has_ended(pid):
                kill_group(pid)
            else:      # no namespace yet (or no pidfd): every process of bwrap's session, from /proc
                kill_session(pid)
            wait_readable(waits, KILL_WAIT)
        finally:
            for fd in waits:
                os.close(fd)

    def note(self) -> str | None:
        if self.userns is None and os.geteuid() == 0:
            return (f"sandbox: bubblewrap ({self.why or 'no own uid'}): student code runs as uid 0 outside the "
                    "sandbox (without capabilities, read-only): install setpriv (util-linux) and bubblewrap "
                    ">= 0.5 for an unprivileged uid")
        return None


def _readable_copy(student_root: str, copy: str) -> str:
    """A copy of the submission that uid 65534 can read (and not change), in the child's home."""
    if os.path.isdir(student_root):
        shutil.copytree(student_root, copy, symlinks=True, ignore=special_files)
        open_up(copy)
        return copy
    return student_root  # none: the child says the files are missing


def data_fd(data: bytes) -> int:
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
    if not under(prefix, "/usr"):
        paths.append(prefix)
    if not any(under(python, p) for p in ["/usr"] + paths):
        paths.append(python)
    return paths
