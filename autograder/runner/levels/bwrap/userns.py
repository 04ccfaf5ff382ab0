"""The grading process's own user namespace, for a child with its own host uid (65534).

See level.py's docstring ("Own uid"): made once per process by a helper that unshares
it; bwrap joins it (--userns) and setpriv switches to nobody inside.
"""
from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from autograder.runner.levels.basic import NOBODY


@dataclass(frozen=True)
class UserNamespace:
    """The grading process's own user namespace (own_userns) and the setpriv that switches uid in it."""
    fd: int          # open for the life of the process; passed to every bwrap
    setpriv: str


def under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


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
    if not under(setpriv, "/usr"):  # the sandbox has /usr
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
