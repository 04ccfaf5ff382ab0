"""The command line as a student and an instructor meet it: exit codes and one-line errors."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from autograder.paths import KIT_ROOT
from autograder.report.json_report import SCHEMA

EXAMPLES = KIT_ROOT / "examples" / "submissions"


def autograder(*args, cwd=KIT_ROOT, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)


def test_does_check_exit_0_with_full_marks_on_the_solutions():
    done = autograder("check", "solutions")
    assert done.returncode == 0, done.stderr
    assert "Score: 100 / 100" in done.stdout


def test_does_check_json_follow_the_design_schema():
    done = autograder("check", "exercises", "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["schema"] == SCHEMA and report["error"] is None and report["score"] == 0
    assert {"submission", "score", "max_score", "error", "tasks"} <= set(report)
    case = report["tasks"][0]["cases"][0]
    assert {"id", "status", "visibility", "message"} <= set(case)
    assert {t["status"] for t in report["tasks"]} == {"missing"}


def test_does_check_task_run_only_that_task():
    report = json.loads(autograder("check", "solutions", "--task", "mul", "--format", "json").stdout)
    assert [t["id"] for t in report["tasks"]] == ["mul"]


def test_does_a_failing_case_show_what_was_computed_expected_and_why():
    done = autograder("check", str(EXAMPLES / "alan_turing"), "--task", "backward")
    assert done.returncode == 1
    assert "got" in done.stdout and "expected" in done.stdout
    assert "derivation:" in done.stdout or "hint:" in done.stdout


@pytest.mark.parametrize("args, message", [
    (("check", "no/such/folder"), "no such file or folder"),
    (("grade", "a", "b"), "need --out"),
    (("check", "solutions", "--config", "no-such.toml"), "no rubric file"),
    (("grade", "--wrokers", "2", "solutions"), "autograder: grade: no option --wrokers: did you mean --workers?"),
    (("check", "--taks", "mul", "solutions"), "autograder: check: no option --taks: did you mean --task?"),
    (("check", "solutions", "more"), "check: unexpected argument 'more' (`autograder check --help` lists them)"),
    (("check", "--zzz", "solutions"), "check: no option --zzz (`autograder check --help` lists them)"),
])
def test_is_bad_input_one_line_and_exit_2(args, message):
    done = autograder(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "usage:" not in done.stderr  # the subcommand's mistake, not the top-level usage


@pytest.mark.parametrize("extra", [[], ["--out", "out"]])
def test_does_grading_an_empty_folder_say_so_in_one_line_with_or_without_out(tmp_path, extra):
    """`grade EMPTY` and `grade EMPTY --out X` alike: nothing to grade is a usage error (exit 2), not a report."""
    (tmp_path / "EMPTY").mkdir()
    done = autograder("grade", "EMPTY", *extra, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("autograder: no submission") and "found in EMPTY: " in lines[0]
    assert "give the folder" in lines[0]


def test_does_check_in_an_empty_folder_name_the_folder_not_a_dot(tmp_path):
    done = autograder("check", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"autograder: no submission found in {tmp_path.resolve()}: ")


def test_does_an_empty_zip_name_the_zip_and_no_folder_of_the_kit(tmp_path):
    import zipfile

    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    done = autograder("check", "empty.zip", cwd=tmp_path)
    assert done.returncode == 1
    assert "in empty.zip" in " ".join(done.stdout.split()) and "unzipped" not in done.stdout
    assert "! error" not in done.stdout  # the one reason, not 14 rows of it


def test_does_checks_first_line_name_the_folder_checked_as_dot(tmp_path):
    shutil.copytree(KIT_ROOT / "solutions" / "micrograd", tmp_path / "work" / "micrograd")
    done = autograder("check", "--task", "add", cwd=tmp_path / "work")
    assert done.stdout.splitlines()[0].startswith("work  (sandbox: ")


def test_does_check_outside_the_kits_venv_say_what_to_set_up_in_one_line():
    """A Python with no site-packages (-S), so no rich: one line naming `make setup`, no traceback."""
    done = subprocess.run([sys.executable, "-S", "-m", "autograder", "check", "solutions"], cwd=KIT_ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"autograder: this Python ({sys.executable}) has no 'rich', which the autograder needs: run `make setup` "
        "in the kit's folder, then .venv/bin/python -m autograder check"]


def test_does_grade_without_a_hidden_seed_say_how_to_set_one(tmp_path):
    (tmp_path / "assignment.toml").write_text('activation = "tanh"\n')
    done = autograder("grade", str(KIT_ROOT / "solutions"), cwd=tmp_path)
    assert done.returncode == 2
    assert "hidden seed" in done.stderr and "AUTOGRADER_HIDDEN_SEED" in done.stderr


def test_does_a_broken_rubric_get_a_one_line_message(tmp_path):
    (tmp_path / "assignment.toml").write_text("points = {mul = -3}\n")
    done = autograder("check", str(KIT_ROOT / "solutions"), cwd=tmp_path)
    assert done.returncode == 2
    assert "points.mul" in done.stderr and "Traceback" not in done.stderr


def test_does_grade_one_submission_run_hidden_cases_too():
    report = json.loads(autograder("grade", "solutions", "--format", "json").stdout)
    visibilities = {c["visibility"] for t in report["tasks"] for c in t["cases"]}
    assert visibilities == {"public", "hidden"}
    assert report["score"] == report["max_score"]


def test_is_the_sandboxs_own_note_left_out_of_a_students_check_but_in_a_grade():
    """'student code can read files ... install bubblewrap' concerns who grades others' code, not a student
    checking their own, many times an hour (the level itself is still in the header)."""
    basic = {"AUTOGRADER_SANDBOX": "basic"}
    check = autograder("check", "solutions", env_extra=basic)
    assert "(sandbox: basic)" in check.stdout and "note: sandbox:" not in check.stdout
    grade = autograder("grade", "solutions", env_extra=basic)
    assert "note: sandbox: basic" in " ".join(grade.stdout.split())
    as_json = json.loads(autograder("check", "solutions", "--format", "json", env_extra=basic).stdout)
    assert any(n.startswith("sandbox: basic") for n in as_json["notes"])  # the record keeps it


def test_is_torch_never_imported_in_the_child(tmp_path):
    """The child runs the student's code alone: no torch in its process, even if installed."""
    sub = tmp_path / "sub" / "micrograd"
    sub.mkdir(parents=True)
    for name in ("nn.py", "train.py"):
        (sub / name).write_text((KIT_ROOT / "solutions" / "micrograd" / name).read_text())
    (sub / "engine.py").write_text("import sys\nraise RuntimeError('torch loaded: %s' % ('torch' in sys.modules))\n")
    report = json.loads(autograder("check", str(tmp_path / "sub"), "--format", "json").stdout)
    assert any("torch loaded: False" in note for note in report["notes"]), report["notes"]


# -- check --graph DIR ---------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed (make setup installs it)")
def test_does_check_graph_write_one_picture_per_failing_case_with_a_graph(tmp_path):
    done = autograder("check", str(EXAMPLES / "barbara_liskov.zip"), "--task", "relu", "--graph", str(tmp_path / "g"))
    assert done.returncode == 1
    pictures = sorted(p.name for p in (tmp_path / "g").iterdir())
    assert pictures and all(p.startswith("relu--") and p.endswith(".svg") for p in pictures)
    assert "relu--hand-at-zero-graph.svg" in pictures
    svg = (tmp_path / "g" / "relu--hand-at-zero-graph.svg").read_text()
    assert svg.startswith("<svg") and "expected 2.0000" in svg
    assert f"Wrote {len(pictures)} graph picture(s)" in done.stderr


def test_does_check_graph_without_dot_say_so_once_and_write_the_graphs_as_text(tmp_path):
    bin_dir = tmp_path / "bin"  # python, and nothing else: no dot
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    done = autograder("check", str(EXAMPLES / "barbara_liskov.zip"), "--task", "relu", "--graph", str(tmp_path / "g"),
                      env_extra={"PATH": str(bin_dir)})
    texts = sorted((tmp_path / "g").iterdir())
    assert texts and all(p.suffix == ".txt" for p in texts)
    assert done.stderr.count("apt-get install graphviz") == 1
    assert "x0 (a leaf), data 1.5000, grad 18.0000 (expected 2.0000)" in (tmp_path / "g" / "relu--hand-at-zero-graph.txt").read_text()


def test_does_check_graph_on_a_file_say_so_in_one_line(tmp_path):
    (tmp_path / "f").write_text("x")
    done = autograder("check", "solutions", "--graph", str(tmp_path / "f"))
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0 and "not a folder" in done.stderr


def test_does_check_json_name_the_mistake_in_its_task_only():
    report = json.loads(autograder("check", str(EXAMPLES / "barbara_liskov.zip"), "--format", "json").stdout)
    named = {t["id"]: t["diagnosis"] for t in report["tasks"]}
    assert [d["id"] for d in named.pop("relu")] == ["relu_gradient_at_zero"]
    assert all(d == [] for d in named.values())


@pytest.mark.parametrize("toml, words", [
    ('forbidden_imports = "torch"\n', "forbidden_imports must be a list of package names"),
    ('allowed_imports = ["notapkg"]\n', "allowed_imports names 'notapkg', which is not installed here"),
])
def test_does_grade_refuse_a_rubric_of_the_wrong_type_or_an_unknown_package_in_one_line(tmp_path, toml, words):
    (tmp_path / "assignment.toml").write_text(toml + "hidden_seed = 12345\n")
    done = autograder("grade", str(KIT_ROOT / "solutions"), "--task", "add", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("autograder: ") and "assignment.toml: " in lines[0]
    assert words in lines[0]


def test_does_an_export_of_one_file_say_1_file(tmp_path):
    done = autograder("export", "gradescope", str(tmp_path / "hw1.zip"), cwd=tmp_path,
                      env_extra={"AUTOGRADER_HIDDEN_SEED": "24680"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("(1 file).")
