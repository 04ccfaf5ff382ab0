"""Does the child see the allowed packages (numpy) and nothing else of the grader's installation?

Real children at every sandbox level this machine has (a level it lacks is skipped with
its reason): the student's engine.py imports numpy, or torch, or jinja2, at import time.
"""
from __future__ import annotations

import os
import sys

import pytest

from autograder.runner import levels
from autograder.runner.levels.uid import chroot
from autograder.runner.levels import ENV, SandboxUnavailable
from autograder.runner.packages import installed_dirs, link_folder, package_paths, site_dirs

from test_session import add_case, make_student, run

NOT_HERE = "this assignment lets your code import the Python standard library and numpy only"


def _level(name: str) -> str | None:
    """Why this machine has no such level, or None when it has."""
    try:
        levels._get(name, levels.interpreter())
    except Exception as err:  # pragma: no cover - a probe that breaks
        return str(err)
    return levels._get(name, levels.interpreter())[1] or None


LEVELS = [pytest.param(name, marks=pytest.mark.skipif(bool(_level(name)), reason=f"{name}: {_level(name)}"))
          for name in levels.NAMES]


@pytest.fixture(params=LEVELS)
def level(request, monkeypatch):
    monkeypatch.setenv(ENV, request.param)
    try:
        levels.current()
    except SandboxUnavailable as err:  # pragma: no cover - skipped above
        pytest.skip(str(err))
    return request.param


def engine_importing(tmp_path, lines: str):
    """A copy of the solutions whose engine.py first runs `lines`."""
    root = make_student(tmp_path)
    engine = root / "micrograd" / "engine.py"
    engine.write_text(lines + "\n" + engine.read_text())
    return root


def test_numpy_imports_and_computes_in_the_child(tmp_path, level):
    """Does an engine that uses numpy's C code (np.tanh, a BLAS dot) import and run its cases, in one
    thread (no thread to fail under RLIMIT_NPROC at the uid level, or to cost memory under RLIMIT_AS)?"""
    root = engine_importing(tmp_path, "import numpy as np\nassert np.dot(np.ones(300), np.ones(300)) == 300\n"
                                      "assert float(np.tanh(0.0)) == 0.0\n"
                                      "import os\n"
                                      "if os.path.exists('/proc/self/status'):  # not in the uid level's root\n"
                                      "    threads = [l for l in open('/proc/self/status') if l.startswith('Threads:')]\n"
                                      "    assert threads == ['Threads:\\t1\\n'], threads")
    result = run(root, [add_case()])
    assert result.imports.errors == {}, result.imports.errors
    assert result.outcomes["add/one"].obs == {"out": -1.0, "grads": [0.5, 0.5]}


@pytest.mark.parametrize("name", ["torch", "jinja2", "rich"])
def test_the_rest_of_the_graders_installation_is_unreachable(tmp_path, level, name):
    """Is torch (or any other installed package) out of reach, even with no rule forbidding it?"""
    assert package_paths((name,)) or name != "torch", "torch should be installed beside numpy here"
    result = run(engine_importing(tmp_path, f"import {name}"), [add_case()], forbidden=())
    assert result.imports.errors["engine"] == f"engine.py:1: ModuleNotFoundError: No module named '{name}': {NOT_HERE}"


def test_a_forbidden_package_says_so(tmp_path, level):
    result = run(engine_importing(tmp_path, "import torch"), [add_case()])
    assert result.imports.errors["engine"].startswith("engine.py:1: ImportError: torch is not allowed")
    assert result.imports.forbidden == result.imports.errors["engine"]


def test_with_nothing_allowed_numpy_is_unreachable_too(tmp_path):
    result = run(engine_importing(tmp_path, "import numpy"), [add_case()], allowed=())
    assert result.imports.errors["engine"] == ("engine.py:1: ModuleNotFoundError: No module named 'numpy': "
                                               "this assignment lets your code import the Python standard library only")


def test_numpy_is_found_with_its_bundled_libraries_and_only_in_site_packages(tmp_path, monkeypatch):
    paths = package_paths(("numpy", "no_such_package_here"))
    assert [os.path.basename(p) for p in paths][:1] == ["numpy"]
    assert all(any(p.startswith(os.path.realpath(d)) for d in site_dirs()) for p in paths)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "six_of_one.py").write_text("")
    assert package_paths(("six_of_one",)) == ()  # the current folder is not an installation


def test_the_link_folder_holds_links_to_exactly_the_paths(tmp_path):
    paths = package_paths(("numpy",))
    old = os.umask(0o077)
    try:
        folder = link_folder(str(tmp_path / "site"), paths)
    finally:
        os.umask(old)
    assert sorted(os.path.realpath(tmp_path / "site" / n) for n in os.listdir(folder)) == sorted(paths)
    assert os.stat(folder).st_mode & 0o777 == 0o755  # whatever the umask
    assert link_folder(str(tmp_path / "none"), ()) is None


def test_an_allowed_package_that_is_not_installed_says_how_to_get_it(tmp_path):
    result = run(engine_importing(tmp_path, "import not_installed_pkg"), [add_case()],
                 allowed=("numpy", "not_installed_pkg"))
    assert result.imports.errors["engine"] == (
        "engine.py:1: ModuleNotFoundError: No module named 'not_installed_pkg': it is allowed, but not "
        "installed beside the autograder (pip install not_installed_pkg)")


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid level is root's")
def test_does_the_uid_level_show_an_allowed_package_only_root_can_read(tmp_path, monkeypatch):
    """Installed under a 0700 folder (/root's venv): the root holds its own world-readable copy of it."""
    monkeypatch.setenv("AUTOGRADER_CACHE", str(tmp_path / "cache"))  # a root of its own, not the grader's
    shut = tmp_path / "shut" / "pkg_only_root_reads"
    shut.mkdir(parents=True)
    (shut / "__init__.py").write_text("ANSWER = 42\n")
    (shut / "__init__.py").chmod(0o600)
    os.chmod(tmp_path / "shut", 0o700)
    root = chroot.root_for(levels.interpreter(), (str(shut),))
    copy = os.path.join(root, chroot.SITE_DIR.lstrip("/"), "pkg_only_root_reads", "__init__.py")
    assert open(copy).read() == "ANSWER = 42\n" and os.stat(copy).st_mode & 0o777 == 0o644
    assert os.stat(shut / "__init__.py").st_mode & 0o777 == 0o600  # on the host it stays root's alone


BEYOND = ("jinja2", "torch", "IPython", "yaml")


@pytest.mark.parametrize("name", BEYOND)
def test_is_no_other_installed_package_there_as_a_file(tmp_path, level, name):
    """With the kit's hooks off sys.meta_path and every site-packages / dist-packages folder of this
    machine on sys.path, is a package beyond the allowed ones still not importable (bubblewrap, uid)?"""
    if level == "basic":
        pytest.skip("the basic level holds this behind the import hook only (its note says so)")
    dirs = installed_dirs(["/usr", "/usr/local", sys.base_prefix, sys.prefix]) + site_dirs()
    if not any(os.path.isdir(os.path.join(d, name)) for d in dirs):
        pytest.skip(f"{name} is not installed here")
    lines = ("import sys\n"
             "sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.rpartition('.')[2] != 'hooks']\n"
             f"sys.path += {dirs!r}\nimport {name}")
    result = run(engine_importing(tmp_path, lines), [add_case()], forbidden=())
    assert "ModuleNotFoundError: No module named" in result.imports.errors.get("engine", ""), result.imports.errors
