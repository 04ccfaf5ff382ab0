"""The "bubblewrap" level: the child runs inside `bwrap`, one sandbox per child (not per case).

What the student's code sees and can do:
- namespaces of its own: no network but a loopback of its own, its own PID space (when
  its pid 1 dies the kernel kills the rest), IPC, UTS, cgroup; a user namespace, and
  none further (see below);
- a read-only view of /usr (/bin, /lib... as on the host), /etc/ld.so.cache, the Python
  installation, the child's folder (/grader/child), the case programs when they are not
  the child's own (/grader/programs), the allowed packages (/grader/site: numpy, not the
  rest of site-packages) and the submission (/submission); a fresh /proc and
  /dev; a private /tmp (a small tmpfs) as its working folder and HOME, the only place it
  can write (bwrap's root is remounted read-only); nothing else:
  not the kit, not the output folder, not other submissions, not /work, /root or /home;
- its uid, when the grader is root ("own uid" below): 65534 (nobody) inside and on the
  host, without capabilities (an empty bounding set too) and supplementary groups;
  when it is not root: uid 65534 inside, the grader's own uid outside;
- a seccomp filter against new processes (fork, vfork and clone without CLONE_THREAD
  fail with EPERM; clone3 with ENOSYS, so threads fall back to clone) on x86_64 and
  aarch64; elsewhere fork works but stays in the PID namespace;
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
namespace is.
"""
from __future__ import annotations

import ctypes
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
from dataclasses import dataclass
from pathlib import Path

from autograder.runner.level import (
    NOBODY, PROBE_CODE, PROBE_TIMEOUT, Launch, Level, child_argv, empty_folder, last_line, open_up, special_files,
)
from autograder.runner.packages import ONE_THREAD
from autograder.runner.cleanup import children_of, kill_session
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


@dataclass(frozen=True)
class UserNamespace:
    """The grading process's own user namespace (own_userns) and the setpriv that switches uid in it."""
    fd: int          # open for the life of the process; passed to every bwrap
    setpriv: str


class BubblewrapLevel(Level):
    name = "bubblewrap"

    def __init__(self, bwrap: str, python: str, features: frozenset[str], userns: UserNamespace | None = None):
        super().__init__()
        self.bwrap, self.python, self.features = bwrap, python, features
        self.userns = userns  # set: the child's own uid (see the module's doc); None: bwrap's user namespace
        self.seccomp = fork_filter()

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
                fds.append(seccomp_fd := _data_fd(self.seccomp))
            options = self.argv(student_root, programs_dir, seccomp_fd, packages)[1:]
            fds.append(args_fd := _data_fd(b"".join(os.fsencode(arg) + b"\0" for arg in options)))
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
             packages: tuple[str, ...] = ()) -> list[str]:
        """bwrap and its options, up to the command."""
        argv = [self.bwrap]
        if self.userns is not None:  # its own user namespace: every other namespace, but that one
            argv += ["--userns", str(self.userns.fd), "--unshare-ipc", "--unshare-pid", "--unshare-net",
                     "--unshare-uts", "--unshare-cgroup-try"]
            if "--assert-userns-disabled" in self.features:
                argv += ["--assert-userns-disabled"]
            argv += ["--cap-drop", "ALL"]
            for cap in SWITCH_CAPS:
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

    @staticmethod
    def folders(dests: list[str]) -> list[str]:
        """--dir options making every folder above these mount points, mode 0755, parents first."""
        made: list[str] = []
        for dest in dests:
            parts = Path(dest).parts[1:-1]
            for i in range(len(parts)):
                folder = "/" + "/".join(parts[: i + 1])
                if folder not in made and not any(_under(folder, p) for p in ("/usr",) + ROOT_LINKS):
                    made.append(folder)
        argv = []
        for folder in made:
            argv += ["--perms", "0755", "--dir", folder]
        return argv

    def exit_status(self, returncode: int) -> int:
        return -(returncode - 128) if 128 < returncode < 128 + 65 else returncode

    def kill(self, pid: int) -> None:
        waits = [fd for fd in map(_pidfd, children_of(pid)) if fd is not None]
        try:
            kill_session(pid)
            _wait_readable(waits, KILL_WAIT)
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


# -- own uid -------------------------------------------------------------------------------

CLONE_NEWUSER = 0x10000000
USERNS_MAP = f"0 0 1\n{NOBODY} {NOBODY} 1\n"  # root (for bwrap) and nobody (for the child), as on the host
OWN_FEATURES = ("--userns", "--perms", "--cap-add")


@functools.lru_cache(maxsize=None)
def own_userns() -> tuple[UserNamespace | None, str]:
    """The grading process's user namespace for the child's own uid, made once: (it, "") or (None, why not).

    Made by a helper (cat, waiting on its stdin) that unshares it between fork and exec and sets
    its user.max_user_namespaces to 0 (no user namespace can be made inside: bwrap's
    --disable-userns needs a namespace of bwrap's own); then the maps are written from here
    (root may map any uid), the namespace is kept by an fd, and the helper ends.
    """
    if os.geteuid() != 0:
        return None, "not root"
    setpriv = shutil.which("setpriv", path="/usr/bin:/bin")
    cat = shutil.which("cat", path="/usr/bin:/bin")
    if setpriv is None or cat is None:
        return None, "no setpriv (util-linux)" if setpriv is None else "no cat"
    setpriv = os.path.realpath(setpriv)
    if not _under(setpriv, "/usr"):  # the sandbox has /usr
        return None, f"{setpriv} is not under /usr"
    libc = ctypes.CDLL(None, use_errno=True)

    def enter():
        if libc.unshare(CLONE_NEWUSER) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
        fd = os.open("/proc/sys/user/max_user_namespaces", os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)

    try:
        helper = subprocess.Popen([cat], cwd="/", env={}, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, preexec_fn=enter)
    except (OSError, subprocess.SubprocessError) as err:
        return None, f"no user namespace of our own: {err}"
    try:
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{helper.pid}/{name}", "w") as f:
                f.write(USERNS_MAP)
        return UserNamespace(os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC), setpriv), ""
    except OSError as err:
        return None, f"no user namespace of our own: {err}"
    finally:
        helper.stdin.close()
        helper.kill()
        helper.wait()


def host_uid(uid: int, uid_map: list[bytes]) -> int | None:
    """The uid outside (the grader's user namespace) of `uid` inside, from /proc/self/uid_map's words."""
    numbers = [int(word) for word in uid_map]
    for inside, outside, count in zip(numbers[0::3], numbers[1::3], numbers[2::3]):
        if inside <= uid < inside + count:
            return outside + uid - inside
    return None


# -- the probe ------------------------------------------------------------------------------

# the child's imports and files, then its uid inside and the map to the uids outside
PROBE = PROBE_CODE + f"; os.listdir({SUBMISSION!r}); print(open('/proc/self/uid_map').read())"


def _features(bwrap: str) -> frozenset[str]:
    """The options of ours this bwrap knows (older ones lack some)."""
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, timeout=PROBE_TIMEOUT).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    known = ("--disable-userns", "--size", "--assert-userns-disabled") + OWN_FEATURES
    return frozenset(opt for opt in known if opt in text)


@functools.lru_cache(maxsize=None)
def probe(python: str) -> tuple[BubblewrapLevel | None, str]:
    """(the level, "") when bwrap runs the child's Python with the very options of a child.

    Run by root: with the child's own uid if it can be had (the test run's uid outside must be
    65534), else in bwrap's user namespace (uid 0 outside; the level's note says why).
    """
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None, "no bwrap on PATH"
    features = _features(bwrap)
    why_not_own = ""
    if os.geteuid() == 0:
        missing = [opt for opt in OWN_FEATURES if opt not in features]
        userns, why_not_own = own_userns() if not missing else (None, f"bwrap lacks {', '.join(missing)}")
        if userns is not None:
            level, why_not_own = _test_run(BubblewrapLevel(bwrap, python, features, userns), python)
            if level is not None:
                return level, ""
    level, why = _test_run(BubblewrapLevel(bwrap, python, features), python)
    if level is not None:
        level.why = why_not_own
    return level, why


def _test_run(level: BubblewrapLevel, python: str) -> tuple[BubblewrapLevel | None, str]:
    limits = Limits()
    with empty_folder() as submission:
        if level.userns is not None:
            os.chmod(submission, 0o755)  # as launch's copy
        argv, fds = level.command(submission, None, [
            python, "-I", "-S", "-c", PROBE, f"{CHILD_DIR}/{Path(CHILD_MAIN).name}"])
        try:
            done = subprocess.run(argv, cwd="/", env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=PROBE_TIMEOUT, start_new_session=True,
                                  pass_fds=tuple(fds) + level.own_fds(),
                                  preexec_fn=level.preexec(limits, limits.cpu_seconds(1)))
        except (OSError, subprocess.SubprocessError) as err:
            return None, f"bwrap did not run: {err}"
        finally:
            for fd in fds:
                os.close(fd)
    words = done.stdout.split()
    if done.returncode != 0 or len(words) < 2 or words[0] != b"ok":
        return None, f"bwrap's test run failed: {last_line(done.stderr)}"
    try:
        uid, outside = int(words[1]), host_uid(int(words[1]), words[2:])
    except ValueError:
        return None, f"bwrap's test run said {done.stdout[:100]!r}"
    if os.geteuid() == 0 and uid != NOBODY:
        return None, f"bwrap's test run ran as uid {uid}, not {NOBODY}"
    if level.userns is not None and outside != NOBODY:
        return None, f"bwrap's test run ran as uid {outside} outside the sandbox, not {NOBODY}"
    return level, ""
