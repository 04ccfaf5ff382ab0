"""What students get: the exercises, the check tool, the public goldens — nothing hidden."""
import json
import os
import subprocess
import sys
import sysconfig
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.config import from_mapping, load_rubric
from autograder.handout import HANDOUT_GOLDENS, write_handout
from autograder.handout.write import HandoutError, public_rubric_toml
from autograder.paths import KIT_ROOT, SOLUTIONS

RUBRIC = load_rubric(KIT_ROOT / "assignment.toml")



def _texts(root: Path):
    for path in root.rglob("*"):
        if path.is_file():
            yield path, path.read_bytes().decode("utf-8", errors="replace")


def test_does_the_handout_hold_the_exercises_and_the_check_tool(handout):
    assert (handout / "micrograd" / "engine.py").read_text() == (KIT_ROOT / "exercises/micrograd/engine.py").read_text()
    assert (handout / "autograder" / "cli" / "__init__.py").is_file()
    assert not (handout / "autograder" / "cli" / "batch.py").exists()
    assert (handout / "autograder" / HANDOUT_GOLDENS).is_file()
    assert (handout / "README.md").read_text().startswith("# Backpropagation")


def test_is_the_reference_engine_left_out(handout):
    assert not list(handout.rglob("reference"))
    for path, text in _texts(handout):
        assert "_bw_mul" not in text and "def _topo" not in text, path


def test_is_no_solution_code_in_the_handout(handout):
    solution_lines = {
        line.strip()
        for path in SOLUTIONS.rglob("*.py")
        for line in path.read_text().split("# BEGIN SOLUTION")[1:]
        for line in line.split("# END SOLUTION")[0].splitlines()[1:]
        if len(line.strip()) > 25
    }
    exercise_text = "".join(p.read_text() for p in (KIT_ROOT / "exercises").rglob("*.py"))
    solution_lines = {line for line in solution_lines if line not in exercise_text}  # the spec may quote it
    assert solution_lines, "the solutions have blocks to look for"
    for path, text in _texts(handout):
        found = [line for line in solution_lines if line in text]
        assert not found, f"{path} holds solution code: {found[:2]}"


def test_are_the_hidden_seed_and_hidden_cases_left_out(handout):
    seed = str(RUBRIC.hidden_seed)
    for path, text in _texts(handout):
        assert seed not in text, f"{path} holds the hidden seed"
    assert "hidden_seed" not in (handout / "assignment.toml").read_text()
    goldens = json.loads((handout / "autograder" / HANDOUT_GOLDENS).read_text())["goldens"]
    assert goldens and not [cid for cid in goldens if "hidden" in cid]


def test_does_check_work_in_the_handout_without_the_reference(handout, tmp_path):
    """A student's machine has the handout and rich, not the kit: check runs on the shipped goldens."""
    work = tmp_path / "student"
    subprocess.run(["cp", "-r", str(handout), str(work)], check=True)
    (work / "micrograd" / "engine.py").write_text((SOLUTIONS / "micrograd" / "engine.py").read_text())
    site = sysconfig.get_paths()["purelib"]  # rich, without the kit's editable install (-S skips .pth files)
    code = (
        "import sys; sys.path[:0] = ['.', %r]\n"
        "try:\n    import reference\nexcept ImportError:\n    pass\nelse:\n    raise SystemExit('reference importable')\n"
        "from autograder.cli import main; raise SystemExit(main(['check', '.', '--format', 'json']))" % site
    )
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRADER_HIDDEN_SEED"}
    env["AUTOGRADER_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=work, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr  # engine done, the rest still stubs
    report = json.loads(done.stdout)
    by_task = {t["id"]: t for t in report["tasks"]}
    assert by_task["mul"]["status"] == "passed" and by_task["backward"]["status"] == "passed"
    assert by_task["train"]["status"] == "missing"
    assert not list((tmp_path / "cache").glob("goldens-*")), "goldens came from the handout, not computed"


def test_does_pytest_in_the_handout_run_one_test_per_task(handout, tmp_path):
    work = tmp_path / "student"
    subprocess.run(["cp", "-r", str(handout), str(work)], check=True)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rf"], cwd=work,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "collected 14 items" in done.stdout and "14 failed" in done.stdout
    assert "FAILED micrograd::test_mul" in done.stdout and "not written yet" in done.stdout
    one = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "test_mul"], cwd=work,
                         capture_output=True, text=True, timeout=120)
    assert "1 failed, 13 deselected" in one.stdout, one.stdout


def test_does_pytest_say_a_rubric_that_cant_work_in_one_line(handout, tmp_path):
    """A user's error reached by the pytest route (here a case timeout of 0) fails each task with the
    kit's one line, not a traceback (a Windows user is told so the same way)."""
    work = tmp_path / "student"
    subprocess.run(["cp", "-r", str(handout), str(work)], check=True)
    toml = work / "assignment.toml"
    toml.write_text(toml.read_text().replace("case_timeout = 3.0", "case_timeout = 0"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "test_mul"],
                          cwd=work, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "1 failed" in done.stdout, done.stdout
    assert "autograder: " in done.stdout and "case_timeout" in done.stdout
    assert "Traceback" not in done.stdout and "ConfigError" not in done.stdout


def test_is_a_non_empty_folder_refused(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(HandoutError, match="not empty"):
        write_handout(tmp_path, rubric=RUBRIC)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_does_the_handouts_rubric_keep_the_allowed_imports():
    """A student's check must show numpy to their code as the instructor's grading does."""
    rubric = replace(RUBRIC, allowed_imports=("numpy", "sympy"))
    assert from_mapping(tomllib.loads(public_rubric_toml(rubric))).allowed_imports == ("numpy", "sympy")


def test_is_the_warning_about_the_public_seed_printed_only_for_it(tmp_path, capsys):
    from autograder.cli import main

    config = tmp_path / "assignment.toml"
    config.write_text("hidden_seed = 8675309\n")
    main(["handout", str(tmp_path / "a"), "--config", str(config)])
    assert "public default" in capsys.readouterr().err
    config.write_text("hidden_seed = 4242\n")
    main(["handout", str(tmp_path / "b"), "--config", str(config)])
    assert "warning" not in capsys.readouterr().err


def test_does_the_handout_ship_only_the_student_side_of_the_autograder(handout):
    """Batch grading, LMS layouts, the handout writer, the exercise generator and the torch adapter stay home."""
    shipped = sorted(p.name for p in (handout / "autograder").iterdir() if p.name != "__pycache__")
    assert shipped == sorted([
        "__init__.py", "__main__.py", "cases", "child", "cli", "config.py", "diagnosis", "errors.py", "files.py", "goldens", "gradcheck.py",
        "grading.py", "notebook_check.py", "own_folders.py",
        "paths.py", "public_goldens.json", "pytest_plugin.py", "report", "runner", "scoring", "scratch.py", "submission",
        "tasks.py", "variants", "zips.py"])


@pytest.mark.parametrize("argv", [["handout", "x"], ["exercises", "--check"], ["grade", ".", "--out", "o"],
                                  ["lms", "canvas", "out", "--gradebook", "g.csv"], ["export", "otter", "d"]])
def test_does_an_instructors_command_in_a_handout_say_so_in_one_line(handout, tmp_path, argv):
    site = sysconfig.get_paths()["purelib"]
    code = ("import sys; sys.path[:0] = ['.', %r]\n"
            "from autograder.cli import main; raise SystemExit(main(%r))" % (site, argv))
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=handout, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "an instructor's command" in done.stderr and "Traceback" not in done.stderr


def test_does_check_outside_the_handouts_venv_say_what_to_set_up_in_one_line(handout):
    """`python3 -m autograder check` with a Python that has no rich (-S: no site-packages): one line
    naming the handout's venv, not a ModuleNotFoundError traceback."""
    done = subprocess.run([sys.executable, "-S", "-m", "autograder", "check"], cwd=handout, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"autograder: this Python ({sys.executable}) has no 'rich', which the autograder needs: set up the "
        "handout's venv (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt), then run "
        ".venv/bin/python -m autograder check"]


# third-party modules the handout's code imports only on paths a student's check never takes (each
# says what to install if it ever is): the feedback page, the histogram, an old-format notebook
NOT_FOR_A_CHECK = {"jinja2", "markupsafe", "PIL", "nbformat", "numpy"}


def test_does_the_handouts_requirements_txt_install_every_library_its_check_imports(handout):
    """On Python 3.10 (Ubuntu 22.04's), assignment.toml needs tomli: every import of the shipped autograder
    (at the top or in a function) is the standard library, the kit's own, or in requirements.txt."""
    import ast

    imported = set()
    for path in (handout / "autograder").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.partition(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.partition(".")[0])
    child = {p.stem for p in (handout / "autograder" / "child").rglob("*.py")} | {"_autograder_child"}  # the child's
    third_party = imported - set(sys.stdlib_module_names) - {"autograder", "reference", "micrograd"} - child
    third_party -= {"tomllib"} | {"_json"}
    lines = (handout / "requirements.txt").read_text(encoding="utf-8").splitlines()
    required = {line.split(";")[0].split("#")[0].strip().split(">")[0].split("=")[0] for line in lines if line.strip()}
    assert third_party - NOT_FOR_A_CHECK <= required, third_party - NOT_FOR_A_CHECK - required
    assert any(line.startswith("tomli") and 'python_version < "3.11"' in line for line in lines)
