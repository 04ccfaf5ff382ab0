"""A seccomp filter against new processes, for the bubblewrap level (bwrap --seccomp).

fork, vfork and clone without CLONE_THREAD fail with EPERM; clone3 with ENOSYS, so
threads fall back to clone; another ABI (int 0x80, x32) is refused whole. Known for
x86_64 and aarch64; elsewhere there is no filter (fork stays in the PID namespace).
"""
from __future__ import annotations

import errno
import platform
import struct


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
