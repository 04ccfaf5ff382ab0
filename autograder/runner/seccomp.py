"""Seccomp filters: against new processes, for the bubblewrap level (bwrap --seccomp); against sockets
and IPC objects, for the uid level (installed by the child itself: install()); against kernel keyrings,
at every level (the basic level's whole filter: keys_filter).

fork, vfork and clone without CLONE_THREAD fail with EPERM; clone3 with ENOSYS, so
threads fall back to clone; another ABI (int 0x80, x32) is refused whole. Known for
x86_64 and aarch64; elsewhere there is no filter (fork stays in the PID namespace).

Kernel keyrings (add_key, request_key, keyctl) are refused with EPERM in every filter, as Docker's
default profile does: a key is a kernel object shared beyond the process (the session keyring it
inherits, the user keyring of its uid, which outlives it), so the child neither reads a key of the
grader's nor leaves one for the next child or the next run. Each child also starts in a session
keyring of its own (keyring.py), made before its code runs.

sched_setaffinity is refused with EPERM in every filter too: it is per thread, and a child's threads
would leave the CPU its grading thread holds it on (same_cpu.py) for another worker's.
"""
from __future__ import annotations

import ctypes
import errno
import os
import struct


_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_CLONE_THREAD = 0x00010000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
# machine -> (AUDIT_ARCH, {syscall: number}); x86_64's x32 numbers (bit 30) are refused whole
_ARCHES = {
    "x86_64": (0xC000003E, {"clone": 56, "fork": 57, "vfork": 58, "clone3": 435}),
    "aarch64": (0xC00000B7, {"clone": 220, "clone3": 435}),
}
# add_key, request_key, keyctl: refused in every filter below
_KEYS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
# sched_setaffinity: refused in every filter below
_CPUS = {"x86_64": (203,), "aarch64": (122,)}


def fork_filter(machine: str | None = None) -> bytes | None:
    """A classic-BPF seccomp program refusing new processes (threads allowed), or None for an
    architecture it doesn't know."""
    machine = machine or os.uname().machine
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
    for number in (*_KEYS[machine], *_CPUS[machine]):
        op(_JEQ_K, number, "eperm", 0)
    for name in ("fork", "vfork"):
        if name in nr:
            op(_JEQ_K, nr[name], "eperm", 0)
    op(_JEQ_K, nr["clone3"], "enosys", 0)
    op(_JEQ_K, nr["clone"], 0, "allow")
    op(_LD_W_ABS, 16)                                  # args[0] (flags), low 32 bits
    op(_JSET_K, _CLONE_THREAD, "allow", "eperm")
    return _assemble(program)


# the "uid" level's filter (uid/level.py's UidLevel): no socket of any kind (no network, no abstract unix socket
# to meet another child at) and no SysV or POSIX IPC object (shared memory, semaphores, message queues);
# new processes are refused there by RLIMIT_NPROC
_IPC_NR = {
    "x86_64": {"socket": 41, "shmget": 29, "semget": 64, "msgget": 68, "mq_open": 240},
    "aarch64": {"socket": 198, "shmget": 194, "semget": 190, "msgget": 186, "mq_open": 180},
}


_PRCTL = {"x86_64": 157, "aarch64": 167}
_PR_SET_PDEATHSIG = 1


def ipc_filter(machine: str | None = None) -> bytes | None:
    """A classic-BPF seccomp program refusing sockets, IPC objects, kernel keyrings and a change of the
    parent-death signal with EPERM (another ABI refused whole), or None for an architecture it doesn't know."""
    machine = machine or os.uname().machine
    if machine not in _IPC_NR:
        return None
    program: list[tuple] = [(_LD_W_ABS, 0, 0, 4), (_JEQ_K, 0, "deny", _ARCHES[machine][0]), (_LD_W_ABS, 0, 0, 0)]
    if machine == "x86_64":
        program.append((_JGE_K, "deny", 0, 0x40000000))
    for number in (*_IPC_NR[machine].values(), *_KEYS[machine], *_CPUS[machine]):
        program.append((_JEQ_K, "eperm", 0, number))
    # prctl(PR_SET_PDEATHSIG): the child keeps the signal that ends it with its grading thread (parent_death.py),
    # never outliving its run under a uid the next child is given
    program += [(_JEQ_K, 0, "allow", _PRCTL[machine]), (_LD_W_ABS, 0, 0, 16), (_JEQ_K, "eperm", 0, _PR_SET_PDEATHSIG)]
    program.append((_RET_K, 0, 0, _ALLOW))
    return _assemble(program)


def keys_filter(machine: str | None = None) -> bytes | None:
    """A classic-BPF seccomp program refusing kernel keyrings alone with EPERM (another ABI refused whole),
    for the basic level, or None for an architecture it doesn't know."""
    machine = machine or os.uname().machine
    if machine not in _KEYS:
        return None
    program: list[tuple] = [(_LD_W_ABS, 0, 0, 4), (_JEQ_K, 0, "deny", _ARCHES[machine][0]), (_LD_W_ABS, 0, 0, 0)]
    if machine == "x86_64":
        program.append((_JGE_K, "deny", 0, 0x40000000))
    for number in (*_KEYS[machine], *_CPUS[machine]):
        program.append((_JEQ_K, "eperm", 0, number))
    program.append((_RET_K, 0, 0, _ALLOW))
    return _assemble(program)


def _assemble(program: list[tuple]) -> bytes:
    """(code, jt, jf, k) instructions, jumps given as labels or offsets, with the return labels appended."""
    labels = {}
    for label, ret in (("allow", _ALLOW), ("eperm", _ERRNO | errno.EPERM),
                       ("enosys", _ERRNO | errno.ENOSYS), ("deny", _ERRNO | errno.EPERM)):
        labels[label] = len(program)
        program.append((_RET_K, 0, 0, ret))
    out = []
    for i, (code, jt, jf, k) in enumerate(program):
        jt = labels[jt] - i - 1 if isinstance(jt, str) else jt
        jf = labels[jf] - i - 1 if isinstance(jf, str) else jf
        out.append(struct.pack("=HBBI", code, jt, jf, k))
    return b"".join(out)


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def installer(program: bytes):
    """A function that installs `program` on the calling process (no_new_privs first), made ahead: it is
    called between fork and exec, after the uid is dropped; raises OSError if the kernel refuses."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]

    def install() -> None:
        if prctl(_PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0 or \
                prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "seccomp filter refused")
    install.keep = (buffer, fprog)  # alive as long as the function
    return install
