"""The "uid" level's own root: a folder holding the child's Python, the shared libraries it and the
allowed packages load, its standard library and the allowed packages, and nothing else.

The child is chrooted into it (as root, between fork and exec, before it drops to its own uid:
uid/level.py), so that no other installed package (site-packages, dist-packages: not copied), no file
of the kit's, no other child's folder and no shared /tmp or /dev/shm exist for it as files; there is
no /proc either, and /dev holds null, zero, full, random and urandom only. Made once per interpreter and set of allowed packages (the key: their real paths
and times) under the grader's cache, ~/.cache/backprop-kit/roots/<key> (0700 above it: only root goes
through), by hard links to the installation's files (copies where a link can't be made or the file
is not world-readable: the child must read what it runs, nothing it could change). A child's own
folder is made in it per child (run/<name>: see uid/level.py's UidLevel).

Needs `ldd` (to find the shared libraries) and the right to chroot (CAP_SYS_CHROOT: root, Docker's
default capabilities); without them the level's probe says why and the uid level is not offered.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

from autograder.own_folders import cache_dir, own_folder

ROOT_VERSION = 2
SITE_DIR = "/grader/site"          # the allowed packages, on the child's sys.path, as at the bubblewrap level
RUN_DIR = "run"                    # the children's own folders, under the root (0711: none can list it)
LEFT_OUT = frozenset({"site-packages", "dist-packages", "test", "__pycache__.tmp"})
_LDD_PATH = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x")


def roots_dir() -> Path:
    """Where the roots are kept: the grader's cache (own_folders.cache_dir), folder roots/, 0700, each this
    user's own (NotOwnFolder, one line, when not: a link there is never followed)."""
    hint = "remove it, or set AUTOGRADER_CACHE to a folder of your own"
    own_folder(cache_dir(), hint=hint)
    folder = own_folder(cache_dir() / "roots", hint=hint)
    os.chmod(folder, 0o700)
    return folder


@functools.lru_cache(maxsize=None)
def root_for(python: str, packages: tuple[str, ...] = ()) -> str:
    """The root for this interpreter and these allowed packages (host paths), made if it is not there yet.
    Raises OSError (or subprocess.SubprocessError) when it can't be made."""
    stamp = [ROOT_VERSION, python, os.stat(python).st_mtime_ns,
             [(p, os.stat(p).st_mtime_ns) for p in packages]]
    key = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:20]
    base = roots_dir()
    dest = base / key
    if (dest / ".made").is_file():
        return str(dest)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=base))
    try:
        _build(str(building), python, packages)
        (building / ".made").write_text(json.dumps(stamp))
        try:
            os.rename(building, dest)
        except OSError:  # another grading process made it meanwhile
            if not (dest / ".made").is_file():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return str(dest)


def _build(root: str, python: str, packages: tuple[str, ...]) -> None:
    os.chmod(root, 0o755)
    place(root, python)
    for folder in _search_path(python):
        tree(root, folder, os.path.realpath(folder))
    for path in packages:
        tree(root, path, os.path.join(SITE_DIR, os.path.basename(path)))
    shared = [python] + [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if ".so" in f]
    for library in shared_libraries([_host(root, p) for p in shared]):
        if not library.startswith(root + "/"):  # those the allowed packages bundle are there already
            place(root, library)
    place(root, "/etc/ld.so.cache", optional=True)
    devices(root)
    os.mkdir(os.path.join(root, RUN_DIR), 0o711)
    os.chmod(os.path.join(root, RUN_DIR), 0o711)


# the harmless devices a program may open (os.devnull above all); none shared between children: /dev/shm,
# /dev/mqueue, ttys and the rest are not made
DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}


def devices(root: str) -> None:
    """/dev with DEVICES, 0666 (root's /dev 0755: the child makes nothing there); left out where mknod is
    not allowed (a container without CAP_MKNOD): then open(os.devnull) fails in the child."""
    folder = os.path.join(root, "dev")
    os.mkdir(folder)
    os.chmod(folder, 0o755)
    for name, (major, minor) in DEVICES.items():
        try:
            os.mknod(os.path.join(folder, name), 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            os.chmod(os.path.join(folder, name), 0o666)
        except OSError:
            pass


def _host(root: str, path: str) -> str:
    """A file placed in the root: its host path (the root's files are links to them, or copies)."""
    return path[len(root):] if path.startswith(root + "/") and not path.startswith(root + SITE_DIR) else path


def _search_path(python: str) -> list[str]:
    """The child interpreter's own sys.path under -I -S: its standard library, lib-dynload (and a zip)."""
    done = subprocess.run([python, "-I", "-S", "-c", "import os, sys; print('\\0'.join(sys.path))"],
                          capture_output=True, timeout=30, check=True, env={"PATH": "/usr/bin:/bin"})
    return [p for p in done.stdout.decode().strip().split("\0") if p and os.path.exists(p)]


def shared_libraries(files: list[str]) -> list[str]:
    """Every shared library these ELF files load (the dynamic loader among them), as ldd resolves them."""
    ldd = shutil.which("ldd", path="/usr/bin:/bin")
    if ldd is None:
        raise OSError("no ldd (libc-bin) to find the shared libraries the child's Python loads")
    found: list[str] = []
    for start in range(0, len(files), 200):
        done = subprocess.run([ldd, *files[start:start + 200]], capture_output=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C"})
        found += _LDD_PATH.findall(done.stdout.decode("utf-8", "replace"))
    return [p for p in dict.fromkeys(found) if os.path.isfile(p)]


def place(root: str, path: str, *, optional: bool = False, _depth: int = 0) -> None:
    """Host file `path` at the same path in the root, with the symbolic links on its way (/lib64 -> usr/lib64)."""
    if _depth > 20:
        raise OSError(f"{path}: too many symbolic links")
    parts = Path(path).parts[1:]
    current = "/"
    for i, part in enumerate(parts):
        host, inside = os.path.join(current, part), os.path.join(root, current.lstrip("/"), part)
        if os.path.islink(host):
            target = os.readlink(host)
            if not os.path.lexists(inside):
                os.symlink(target, inside)
            place(root, os.path.join(os.path.dirname(host), target, *parts[i + 1:]), optional=optional,
                  _depth=_depth + 1)
            return
        if not os.path.exists(host):
            if optional:
                return
            raise FileNotFoundError(host)
        if os.path.isdir(host):
            if not os.path.isdir(inside):
                os.mkdir(inside)
                os.chmod(inside, 0o755)
        elif not os.path.lexists(inside):
            _link(host, inside)
        current = host


def tree(root: str, source: str, dest: str) -> None:
    """The folder `source` (a real path) at `dest` in the root, all but LEFT_OUT (installed packages, tests)."""
    place(root, os.path.dirname(dest)) if os.path.exists(os.path.dirname(dest)) else _folders(root, dest)
    if os.path.isfile(source):
        _link(source, os.path.join(root, dest.lstrip("/")))
        return
    for folder, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if d not in LEFT_OUT]
        inside = os.path.join(root, dest.lstrip("/"), os.path.relpath(folder, source))
        os.makedirs(inside, exist_ok=True)
        os.chmod(inside, 0o755)
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            host = os.path.join(folder, name)
            if os.path.lexists(os.path.join(inside, name)):  # lib-dynload: its folder is on sys.path too
                continue
            if os.path.islink(host):
                os.symlink(os.readlink(host), os.path.join(inside, name))
            elif os.path.isfile(host):
                _link(host, os.path.join(inside, name))


def _folders(root: str, dest: str) -> None:
    """Folders of the root's own (/grader/site), 0755."""
    folder = root
    for part in Path(dest).parts[1:-1]:
        folder = os.path.join(folder, part)
        if not os.path.isdir(folder):
            os.mkdir(folder)
            os.chmod(folder, 0o755)


def _link(source: str, dest: str) -> None:
    """A hard link to a world-readable file; else (or across file systems) a copy, 0644 or 0755."""
    mode = os.stat(source).st_mode
    if mode & 0o004:
        try:
            os.link(source, dest)
            return
        except OSError:
            pass
    shutil.copyfile(source, dest)
    os.chmod(dest, 0o755 if mode & 0o111 else 0o644)
