"""Does every documented student command work in a fresh handout, on a fresh machine?

Fresh means: an empty HOME and XDG_CACHE_HOME (no warm goldens cache), and no
reference engine importable. The quick tests run the handout's own check tool
with the kit's interpreter but none of its installed packages besides the
third-party ones; the slow one builds the handout's venv from its
requirements.txt exactly as the student README says.
"""
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from pythons import oldest_python





def _fresh_env(tmp_path: Path) -> dict:
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("AUTOGRADER_HIDDEN_SEED", "AUTOGRADER_CACHE", "PYTHONPATH")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    return env


def _run_check(handout: Path, tmp_path: Path, args: list[str]) -> subprocess.CompletedProcess:
    site = sysconfig.get_paths()["purelib"]  # rich and numpy, without the kit's editable install (-S)
    code = (
        "import sys; sys.path[:0] = ['.', %r]\n"
        "try:\n    import reference\nexcept ImportError:\n    pass\nelse:\n    raise SystemExit('reference importable')\n"
        "from autograder.cli import main; raise SystemExit(main(%r))" % (site, args)
    )
    return subprocess.run([sys.executable, "-S", "-c", code], cwd=handout, capture_output=True, text=True,
                          env=_fresh_env(tmp_path), timeout=120)


@pytest.mark.parametrize("task", ["add", "mul", "backward", "neuron", "train"])
def test_does_check_task_work_with_an_empty_cache(handout, tmp_path, task):
    """`check --task mul` once failed in every fresh handout: a subset of tasks missed the shipped goldens."""
    done = _run_check(handout, tmp_path, ["check", "--task", task, "--format", "json"])
    assert done.returncode == 1, done.stderr  # stubs: the task is not written yet
    assert "internal error" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert [t["id"] for t in report["tasks"]] == [task]
    assert report["tasks"][0]["cases"] and {c["status"] for c in report["tasks"][0]["cases"]} == {"missing"}
    assert not any((tmp_path / "home" / ".cache").rglob("goldens-*.json")), "the goldens came from the handout"


def test_does_plain_check_work_with_an_empty_cache(handout, tmp_path):
    done = _run_check(handout, tmp_path, ["check"])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "Score: 0 / 100" in done.stdout


def test_does_a_fresh_handout_name_a_mistake_and_draw_its_graph(handout, tmp_path):
    """The predictions ship with the public goldens: no reference, no cache, and the mistake is named."""
    work = tmp_path / "hw1"
    subprocess.run(["cp", "-r", str(handout), str(work)], check=True)
    engine = work / "micrograd" / "engine.py"
    solved = (Path(__file__).resolve().parents[2] / "solutions" / "micrograd" / "engine.py").read_text()
    engine.write_text(solved.replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad"))
    done = _run_check(work, tmp_path, ["check", "--task", "mul", "--graph", "graphs"])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "Rule: `x.grad = ...` in *'s _backward overwrites" in done.stdout
    assert "Next: The fix: `+=` in place of `=` on micrograd/engine.py line 51" in done.stdout  # proven on the student's side
    assert "graph picture(s)" in done.stderr or "graphs are shown as text" in done.stderr
    assert list((work / "graphs").iterdir())


def test_are_the_handout_files_readable_by_everyone(handout):
    """Students and TAs on a shared machine read one handout: files 0644-ish, folders traversable."""
    for path in [handout, *handout.rglob("*")]:
        mode = path.stat().st_mode
        assert mode & 0o004, f"{path} is not readable by others ({oct(mode & 0o777)})"
        if path.is_dir():
            assert mode & 0o001, f"{path} is not traversable by others"


@pytest.mark.slow
@pytest.mark.parametrize("python", ["this", "3.10"])
def test_do_the_readme_commands_work_in_the_handouts_own_venv(handout, tmp_path, python):
    """The student README's commands, in a venv made from the handout's requirements.txt (needs PyPI), with
    this Python and with Python 3.10 (Ubuntu 22.04's: assignment.toml is read with tomli there)."""
    interpreter = sys.executable if python == "this" else oldest_python()
    if interpreter is None:
        pytest.skip("no Python 3.10 on this machine")
    work = tmp_path / "hw1"
    subprocess.run(["cp", "-r", str(handout), str(work)], check=True)
    env = _fresh_env(tmp_path)
    venv = subprocess.run([interpreter, "-m", "venv", ".venv"], cwd=work, env=env, capture_output=True, text=True)
    assert venv.returncode == 0, venv.stderr
    pip = subprocess.run([".venv/bin/pip", "install", "-q", "-r", "requirements.txt"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-2000:]
    py = str(work / ".venv" / "bin" / "python")
    assert subprocess.run([py, "-c", "import reference"], cwd=tmp_path, env=env).returncode != 0
    for args, want in ((["-m", "autograder", "check"], 1),
                       (["-m", "autograder", "check", "--task", "mul"], 1),
                       (["-m", "autograder", "check", "--task", "backward"], 1),
                       (["-m", "autograder", "check", "--format", "json"], 1),
                       (["-m", "pytest", "-q", "-p", "no:cacheprovider"], 1)):
        done = subprocess.run([py, *args], cwd=work, env=env, capture_output=True, text=True, timeout=300)
        out = done.stdout + done.stderr
        assert done.returncode == want, (args, out[-2000:])
        assert "Traceback" not in out and "internal error" not in out, (args, out[-2000:])
