"""The zygote: the child pre-imported once per grading process, forking a fresh sandbox per submission.

    python -I -S autograder/child/zygote.py --control-fd N --seccomp-fd M [--programs DIR]

Runs inside bubblewrap (runner/levels/zygote/zygote.py starts it) as uid 0 of the grader's own user
namespace with a few capabilities there (harmless outside it), never runs a student's code
itself, and is not dumpable (no ptrace, no /proc/<pid>/mem). Standard library only.

Per submission, on a "start" message on the control socket (a SOCK_SEQPACKET socket; the
message brings the submission's four fds: job, result, stdout, stderr):

    clone (B: pid 1 of new PID, mount and IPC namespaces; a fork with namespace flags, kernel.py) -> fork
    (C: pid 2; B only waits from then on) -> C, still with B's capabilities, makes the namespace's mounts
    private, mounts a fresh /proc, a fresh tmpfs /tmp and /dev/shm, and binds only that submission's folder
    of the staging folder over /submission, read-only; then drops every capability (bounding set, ambient,
    inheritable), joins a new session keyring, switches to uid/gid 65534 without groups, sets the rlimits,
    no_new_privs and the seccomp filter against new processes and keyrings, closes all but its five fds,
    and runs main.py's loop.

B and C each say hello on the control socket before C runs anything of the student's: the
kernel attaches their pids as the grader sees them (SO_PASSCRED), so the grader can watch C
(its CPU time, its exit) and end the whole submission by ending B: when a PID namespace's
pid 1 dies the kernel kills the rest. B ends with C's exit status (128 + N for signal N, as
bwrap's pid 1 does). A "reap" message kills B (if it is still there), reaps it and answers
its exit status (and the CPU time the zygote and all it has reaped have used, for benchmarks).
The control socket is closed in B and C before C runs main.py.
"""
import fcntl
import gc
import os
import random  # noqa: F401  - what nearly every student's nn.py imports; reseeded in each fork (register_at_fork)
import resource
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import main  # noqa: E402  - the child's own imports, once: adapt, hooks, observe, student
from kernel import (  # noqa: E402
    CLONE_NEWIPC, CLONE_NEWNS, CLONE_NEWPID, MS_BIND, MS_NODEV, MS_NOEXEC, MS_NOSUID, MS_PRIVATE, MS_RDONLY, MS_REC,
    MS_REMOUNT, PR_SET_CHILD_SUBREAPER, PR_SET_DUMPABLE, clone_into, drop_privileges, install_seccomp, mount,
    new_session_keyring, prctl, set_rlimits)

del sys.path[0], sys.modules["main"], sys.modules["kernel"]  # a student's own main.py or kernel.py is theirs

observe = main.observe
WORK, SUBMISSION = "/tmp", "/submission"
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus")
SETUP_FAILED = 90  # B's or C's exit status when the sandbox could not be made (the zygote says why)
HIGH_FD = 32       # where fds are kept out of the way of C's first five (and of what it dup2s there)
FIRST_FD = 3       # C's fds: 0 /dev/null, 1 stdout, 2 stderr, 3 job, 4 result

class Zygote:
    def __init__(self, control, seccomp, programs_dir):
        self.control, self.seccomp, self.programs_dir = control, seccomp, programs_dir
        self.inits = {}  # submission id -> B's pid (here)
        with open("/proc/sys/kernel/cap_last_cap") as f:
            self.last_cap = int(f.read())
        ro = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
        self.fixed_mounts = [(None, b"/", None, MS_REC | MS_PRIVATE, None),  # nothing of B's reaches the zygote
                             (b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)]
        for name in PROC_READ_ONLY:  # what this procfs has, a fresh one has
            path = ("/proc/" + name).encode()
            if os.path.exists(path):
                self.fixed_mounts += [(path, path, None, MS_BIND | MS_REC, None), (None, path, None, ro, None)]
        self.shm_mount = [(b"tmpfs", b"/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=1m,mode=1777")] \
            if os.path.isdir("/dev/shm") else []

    def send(self, message, sock=None):
        (sock or self.control).send(observe.dumps_own(message).encode())  # its own dicts: _json's C encoder

    def serve(self):
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(self.control, 1 << 16, 8)
            except OSError:
                return
            if not data:  # the grader closed its end
                return
            request = observe.loads(data)
            if request.get("op") == "start":
                self.start(request, fds)
            elif request.get("op") == "reap":
                self.reap(request["id"])

    def start(self, request, fds):
        """B, cloned straight into new PID, mount and IPC namespaces; its pid here. What B and C do first is
        made ready here (the mounts' arguments, the hellos), so that B runs as little as it can before it
        forks C: every page it writes is a copy, and each page it copied costs the fork more."""
        ident = request["id"]
        try:
            ready = self.mounts(request), *(observe.dumps_own({"id": ident, "hello": who}).encode()
                                            for who in ("init", "child"))
            b = clone_into(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC)
        except Exception as err:
            self._say_error(ident, err)
            b = None
        if b == 0:
            self.init(request, fds, *ready)  # never returns
        for fd in fds:
            os.close(fd)
        if b:
            self.inits[ident] = b

    def _say_error(self, ident, err):
        try:
            self.send({"id": ident, "error": f"{type(err).__name__}: {err}"})
        except BaseException:  # noqa: B036
            pass

    def mounts(self, request):
        """The namespace's mounts, in order, as libc.mount's arguments: its own private, a fresh /proc (sys,
        sysrq-trigger, irq and bus read-only, as bwrap's --proc leaves them: those procfs has), /tmp, /dev/shm,
        the submission."""
        folder = os.path.join(SUBMISSION, request["folder"]).encode()
        return self.fixed_mounts + [
            (b"tmpfs", WORK.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, f"size={request['tmpfs_bytes']},mode=1777".encode()),
        ] + self.shm_mount + [
            (folder, SUBMISSION.encode(), None, MS_BIND | MS_REC, None),
            (None, SUBMISSION.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None),
        ]

    def init(self, request, fds, mounts, hello, child_hello):
        """B: pid 1 of the submission's namespace: forks C at once (C makes the mounts, in the namespace they
        share, before it drops its capabilities); ends with C's status."""
        try:
            c = os.fork()
            if c == 0:
                self.child(request, fds, mounts, child_hello)  # never returns
            self.control.send(hello)
        except BaseException as err:  # noqa: B036
            self._say_error(request["id"], err)
            os._exit(SETUP_FAILED)
        self.control.close()
        for fd in fds:
            os.close(fd)
        while True:  # pid 1 reaps whatever ends in the namespace; it ends with C
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                os._exit(SETUP_FAILED)
            if pid == c:
                code = os.waitstatus_to_exitcode(status)
                os._exit(code if code >= 0 else 128 - code)

    def child(self, request, fds, mounts, hello):
        """C: the namespace's mounts, then the submission's own process, without privileges, running main.py's loop."""
        ident = request["id"]
        try:
            for args in mounts:
                mount(*args)
            os.setsid()
            job, result, out, err = (fcntl.fcntl(fd, fcntl.F_DUPFD, HIGH_FD) for fd in fds)
            null = os.open("/dev/null", os.O_RDWR)
            for target, fd in enumerate((null, out, err, job, result)):  # 0 1 2, then the job and result fds
                os.dup2(fd, target)
            set_rlimits(request["rlimits"])
            new_session_keyring()  # its own: no key of another submission's, and the filter refuses the rest
            drop_privileges(self.last_cap)
            os.chdir(WORK)
            self.control.send(hello)
            self.control.close()
            os.closerange(FIRST_FD + 2, 1 << 16)
            install_seccomp(self.seccomp)
        except BaseException as err:  # noqa: B036
            self._say_error(ident, err)
            os._exit(SETUP_FAILED)
        sys.argv = [os.path.join(HERE, "main.py")] + request["argv"]
        sys.modules["__main__"] = main
        main.main(request["argv"])
        os._exit(0)

    def reap(self, ident):
        """Kill B (the kernel then ends its namespace), reap it, answer its exit status."""
        pid = self.inits.pop(ident, None)
        if pid is None:
            self.send({"id": ident, "status": None})
            return
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
        own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime  # all told, for benchmarks
        self.send({"id": ident, "status": os.waitstatus_to_exitcode(status), "cpu": cpu})


def options(argv):
    opts = dict(zip(argv[::2], argv[1::2]))
    return int(opts["--control-fd"]), int(opts["--seccomp-fd"]), opts.get("--programs")


def preload(programs_dir):
    """The case programs, imported once here: every fork finds them in sys.modules."""
    folder = programs_dir or os.path.join(HERE, "programs")
    names = sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".py") and name != "__init__.py")
    main.load_programs(programs_dir, names)
    # compile()'s one-time set-up (the AST node types, ~1 ms), made here once, not in every fork that compiles
    # the student's files
    compile("", "<zygote>", "exec")


def serve(argv):
    control_fd, seccomp_fd, programs_dir = options(argv)
    seccomp = b""
    if seccomp_fd >= 0:
        with os.fdopen(seccomp_fd, "rb") as f:
            seccomp = f.read()
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    preload(programs_dir)
    gc.freeze()  # what is imported now is never scanned by a fork's collector: fewer copy-on-write pages
    control = socket.socket(fileno=fcntl.fcntl(control_fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD))
    os.close(control_fd)
    Zygote(control, seccomp, programs_dir).serve()
    os._exit(0)


if __name__ == "__main__":
    serve(sys.argv[1:])
