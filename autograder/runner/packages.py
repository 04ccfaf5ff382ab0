"""The installed packages the student's code may import (the rubric's allowed_imports), found
in the grader's installation, and the folder that shows the child those and nothing else.

The child runs with `-I -S`: no site-packages on its sys.path. An allowed package (numpy) is
shown to it in a folder of its own on its sys.path: at the "basic" level a folder of symbolic
links (the package, and the `<name>.libs` folder its wheel bundles its shared libraries in),
in the child's home; at the "bubblewrap" level the same paths bound read-only under
/grader/site, and at the "uid" level hard links to them at /grader/site in the child's root
(levels/uid/chroot.py). At those two, the other installed packages are not there as files either
(installed_dirs: masked, or never put in the root); at "basic" only the import hook refuses them.
"""
from __future__ import annotations

import functools
import glob
import os
import site
from importlib.machinery import PathFinder
from typing import Iterable


def site_dirs() -> list[str]:
    """Where the grader's installed packages are (its venv's site-packages), not the kit's
    own folder or the current one (a student's own numpy.py there is not the package)."""
    dirs = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    if site.ENABLE_USER_SITE and isinstance(site.USER_SITE, str):
        dirs.append(site.USER_SITE)
    return [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]


@functools.lru_cache(maxsize=None)
def package_paths(names: tuple[str, ...], dirs: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The real paths of what to show the child for `names`: each package's folder (or
    module file) and its wheel's `<name>.libs` folder, when there is one. A name that is
    not installed is left out (the child then says it is not available)."""
    found: list[str] = []
    for name in names:
        spec = PathFinder.find_spec(name, list(dirs if dirs is not None else site_dirs()))
        if spec is None:
            continue
        locations = list(spec.submodule_search_locations or ())
        path = locations[0] if locations else spec.origin
        if not path or not os.path.exists(path):  # a namespace package spread over folders, or nothing
            continue
        path = os.path.realpath(path)
        found.append(path)
        libs = os.path.join(os.path.dirname(path), name + ".libs")
        if os.path.isdir(libs):
            found.append(os.path.realpath(libs))
    return tuple(dict.fromkeys(found))


def not_installed(names: Iterable[str]) -> list[str]:
    """The names among `names` that the grader's installation has no package for."""
    dirs = site_dirs()
    return [name for name in names if PathFinder.find_spec(name, dirs) is None]


# where an installation keeps packages beyond the standard library: Python's own (site-packages), Debian's
# (dist-packages, /usr/lib/python3 for every version), Fedora's lib64; under /usr, /usr/local and a prefix
INSTALLED = ("lib*/python3*/site-packages", "lib*/python3*/dist-packages", "lib/python3/dist-packages")


def installed_dirs(prefixes: Iterable[str] = ("/usr", "/usr/local")) -> list[str]:
    """Every folder of installed packages under these prefixes (real folders, not links to them): what the
    child must not find as files. The standard library lies beside them and stays."""
    found = []
    for prefix in prefixes:
        for pattern in INSTALLED:
            found += [path for path in sorted(glob.glob(os.path.join(prefix, pattern)))
                      if os.path.isdir(path) and not os.path.islink(path)]
    return list(dict.fromkeys(found))


def link_folder(folder: str, paths: Iterable[str]) -> str | None:
    """`folder` made to hold a symbolic link to each path (under its own name); None for no paths."""
    paths = list(paths)
    if not paths:
        return None
    os.mkdir(folder)
    os.chmod(folder, 0o755)  # whatever the umask
    for path in paths:
        os.symlink(path, os.path.join(folder, os.path.basename(path)))
    return folder


# the child's environment: a library that can start threads does not (no threads at import,
# none to fail under RLIMIT_NPROC or the seccomp filter, no per-thread buffers under RLIMIT_AS)
ONE_THREAD = {name: "1" for name in (
    "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}

