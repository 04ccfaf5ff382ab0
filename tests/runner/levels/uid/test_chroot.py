"""Does the uid level's root hold the child's Python, its standard library and the allowed packages, and
nothing else installed?"""
from __future__ import annotations

import os
import stat
import subprocess

import pytest

from autograder.runner import levels
from autograder.runner.levels.uid import chroot
from autograder.runner.packages import installed_dirs, package_paths


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A root made once for the module, in a cache of its own (not the grader's)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("AUTOGRADER_CACHE", str(tmp_path_factory.mktemp("cache")))
    chroot.root_for.cache_clear()
    try:
        yield chroot.root_for(levels.interpreter(), package_paths(("numpy",)))
    finally:
        chroot.root_for.cache_clear()
        patch.undo()


def _inside(root: str, path: str) -> str:
    return os.path.join(root, path.lstrip("/"))


def test_is_no_folder_of_installed_packages_in_the_root(root):
    python = levels.interpreter()
    prefix = os.path.dirname(os.path.dirname(python))
    found = installed_dirs(["/usr", "/usr/local", prefix, "/"])
    assert found, "this machine has installed packages somewhere"
    assert not [d for d in installed_dirs([_inside(root, p) for p in ("/usr", "/usr/local", prefix)])]
    assert os.path.isfile(_inside(root, python)) and os.path.isfile(_inside(root, os.__file__))
    assert os.path.isdir(_inside(root, chroot.SITE_DIR + "/numpy"))
    assert not os.path.exists(_inside(root, "/work")) and not os.path.exists(_inside(root, "/proc"))


def test_does_every_file_the_child_reads_belong_to_root_and_open_to_it(root):
    """World-readable, changed by root alone: no file or folder in the root is writable by others."""
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            st = os.lstat(os.path.join(folder, name))
            if stat.S_ISLNK(st.st_mode) or stat.S_ISCHR(st.st_mode):
                continue
            assert st.st_uid == 0 or os.geteuid() != 0, os.path.join(folder, name)
            assert not st.st_mode & 0o002, os.path.join(folder, name)
    assert stat.S_IMODE(os.stat(_inside(root, chroot.RUN_DIR)).st_mode) == 0o711


def test_are_the_links_on_the_way_kept(root):
    """/lib64 -> usr/lib64 on a merged /usr: the loader's path resolves in the root as on the host."""
    for link in ("/lib64", "/lib", "/bin"):
        if os.path.islink(link) and os.path.lexists(_inside(root, link)):
            assert os.readlink(_inside(root, link)) == os.readlink(link)


@pytest.mark.skipif(os.geteuid() != 0, reason="chroot is root's")
def test_does_the_python_in_the_root_run_with_numpy_and_nothing_else(root):
    code = ("import sys; sys.path.append('/grader/site'); import numpy, os; "
            "print(numpy.dot(numpy.ones(3), numpy.ones(3)), os.path.exists('/usr/lib/python3/dist-packages'))")
    done = subprocess.run([levels.interpreter(), "-I", "-S", "-c", code], capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1"},
                          preexec_fn=lambda: (os.chroot(root), os.chdir("/")))
    assert done.stdout.split() == ["3.0", "False"], done.stderr[-500:]
