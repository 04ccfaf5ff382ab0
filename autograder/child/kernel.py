"""The system calls the zygote makes through libc (ctypes): mounts, prctl, capabilities, seccomp, clone.

Standard library only (runs in the zygote's bwrap, see zygote.py). `clone_into` is os.fork with
namespace flags: the zygote makes a submission's pid 1 (B) in one step, in new PID, mount and IPC
namespaces, instead of forking a process that unshares them and forks again. What glibc's fork does
around its clone is done here too, as far as it matters in a process with one thread (the zygote):
Python's own bookkeeping (PyOS_BeforeFork, PyOS_AfterFork_Child / _Parent: the import lock, the GIL
and thread states, the os.register_at_fork callbacks such as random's reseed) through the C API with
the GIL held, and the child's cached thread id in its thread control block (CLONE_CHILD_SETTID at
the tid field glibc's libthread_db descriptor names, checked against gettid first). glibc's own
locks (malloc, stdio, the loader) need no reset: one thread holds none of them across the call.
"""
import ctypes
import errno as _errno
import os
import resource

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_CHILD_SETTID = 0x00020000, 0x08000000, 0x20000000, 0x01000000
SIGCHLD = 17
# the numbers of clone and gettid, and where clone takes the child's tid address (its 4th or 5th argument)
_SYSCALLS = {"x86_64": (56, 186, 3), "aarch64": (220, 178, 4)}
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 4, 24, 38, 22
PR_SET_CHILD_SUBREAPER, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 36, 47, 4
SECCOMP_MODE_FILTER = 2
NOBODY = 65534
KEYCTL_JOIN_SESSION_KEYRING = 1
_KEYCTL = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine)

libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
# clone with the GIL held, as os.fork forks: nothing else of this interpreter runs across it
_held = ctypes.PyDLL(None, use_errno=True)
_clone = _held.syscall
_clone.restype = ctypes.c_long
_clone.argtypes = [ctypes.c_long, ctypes.c_ulong] + [ctypes.c_void_p] * 4


def _failed(what):
    errno = ctypes.get_errno()
    return OSError(errno, f"{what}: {os.strerror(errno)}")


def mount(source, target, kind, flags, data=None):
    """libc's mount; bytes or None (the zygote makes them ready before it forks)."""
    if libc.mount(source, target, kind, flags, data) != 0:
        raise _failed(f"mount {target.decode()}")


def prctl(option, arg2=0, arg3=None, arg4=0, arg5=0):
    if libc.prctl(option, arg2, arg3, arg4, arg5) != 0:
        raise _failed(f"prctl {option}")


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_privileges(last_cap):
    """No capability in any set, uid and gid 65534, no groups; no_new_privs."""
    for cap in range(last_cap + 1):
        prctl(PR_CAPBSET_DROP, cap)
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(NOBODY, NOBODY, NOBODY)
    os.setresuid(NOBODY, NOBODY, NOBODY)  # clears the effective and permitted sets
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()  # _LINUX_CAPABILITY_VERSION_3: all zero
    if libc.capset(ctypes.byref(header), data) != 0:
        raise _failed("capset")
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def new_session_keyring():
    """A new, anonymous session keyring for this process: none of the zygote's (whose is already not the
    grader's) nor another submission's. ENOSYS or EPERM: keys are refused already, nothing to join."""
    if _KEYCTL is not None and libc.syscall(_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None) < 0 \
            and ctypes.get_errno() not in (_errno.ENOSYS, _errno.EPERM):
        raise _failed("keyctl join session keyring")


def install_seccomp(program):
    if not program:
        return
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog))


def set_rlimits(rlimits):
    for which, value in rlimits:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def _tid_field():
    """The address of this thread's cached thread id in glibc's thread control block, or None when it
    can't be found for sure (another libc): then the clone's child keeps its parent's there."""
    try:
        size, count, offset = (ctypes.c_uint32 * 3).in_dll(libc, "_thread_db_pthread_tid")
        libc.pthread_self.restype = ctypes.c_void_p
        address = libc.pthread_self() + offset
        if (size, count) != (32, 1) or ctypes.c_int.from_address(address).value != libc.syscall(_GETTID):
            return None
        return address
    except (AttributeError, ValueError, TypeError):
        return None


_CLONE, _GETTID, _TID_ARG = _SYSCALLS.get(os.uname().machine, (None, None, None))
_TID = []  # the address _tid_field found, once


def clone_into(flags):
    """os.fork() into new namespaces (flags: CLONE_NEW*): 0 in the child, its pid in the parent."""
    if _CLONE is None:
        raise OSError(f"clone: no syscall number known on {os.uname().machine}")
    if not _TID:
        _TID.append(_tid_field())
    tid = _TID[0]
    args = [flags | SIGCHLD | (CLONE_CHILD_SETTID if tid else 0), None, None, None, None]
    args[_TID_ARG] = tid
    ctypes.pythonapi.PyOS_BeforeFork()  # takes the import lock: released in both processes below
    try:
        pid = _clone(_CLONE, *args)
    except BaseException:
        ctypes.pythonapi.PyOS_AfterFork_Parent()
        raise
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
        return 0
    errno = ctypes.get_errno()
    ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(errno, f"clone: {os.strerror(errno)}")
    return pid
