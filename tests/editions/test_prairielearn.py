"""Does the PrairieLearn question's external grader grade whatever a student uploads into a results.json
that follows PrairieLearn's documented fields, with the score `autograder grade` gives, keep the hidden
seed and goldens from the student, and say `gradable: false` only when the kit itself could not grade?

PrairieLearn's facts (docs/externalGrading.md): the question's tests/ folder is copied to /grade/tests,
the serverFilesCourse entries info.json lists to /grade/serverFilesCourse, the student's files to
/grade/student, the data object to /grade/data/data.json; the entrypoint must write
/grade/results/results.json (it creates /grade/results itself): `score` in [0, 1] (unneeded when
`gradable` is false), `gradable`, `format_errors`, `message`, `output`, `images` [{label, url}], and
`tests` [{name, description, points, max_points, message, output, images}]; at most 1 MB. Each run here
is the real run.sh, on a temporary /grade tree, with the test's Python standing in for the image's.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.paths import KIT_ROOT

SEED = "24681357"
TOP_KEYS = {"gradable", "score", "message", "output", "images", "tests", "format_errors"}
TEST_KEYS = {"name", "description", "points", "max_points", "message", "output", "images"}
MUL_GRAD = "other.grad += self.data * out.grad"
QUESTION = "questions/backprop-hw1"


def validate(results: dict, path: Path) -> None:
    """results.json as PrairieLearn's documentation has it (see the module's docstring)."""
    assert path.stat().st_size < 1_000_000
    assert set(results) <= TOP_KEYS, set(results) - TOP_KEYS
    assert isinstance(results.get("gradable", True), bool)
    if results.get("gradable", True):
        assert isinstance(results["score"], (int, float)) and 0 <= results["score"] <= 1
    else:
        assert isinstance(results["format_errors"], (str, list))
    for test in results.get("tests", []):
        assert set(test) <= TEST_KEYS and isinstance(test["name"], str), set(test) - TEST_KEYS
        assert 0 <= test["points"] <= test["max_points"] or test["max_points"] == 0 == test["points"]
        for image in test.get("images", []):
            assert image["url"].startswith("data:image/") and isinstance(image["label"], str)


@pytest.fixture(scope="module")
def question(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    dest = tmp_path_factory.mktemp("pl") / "course"
    assert main(["export", "prairielearn", str(dest)]) == 0
    yield dest
    mp.undo()


def run_grader(course: Path, root: Path, upload, params: dict | None = None, **env) -> tuple[dict, str]:
    """The /grade tree as PrairieLearn builds it, and the real entrypoint run on it: (results, its stdout).
    params: the variant's, as server.py's generate() made them."""
    shutil.copytree(course / "serverFilesCourse", root / "serverFilesCourse")
    shutil.copytree(course / QUESTION / "tests", root / "tests")
    (root / "student").mkdir()
    upload(root / "student")
    files = [{"name": p.name, "contents": base64.b64encode(p.read_bytes()).decode()}
             for p in sorted((root / "student").iterdir()) if p.is_file()]
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps({"params": params or {}, "submitted_answers": {"_files": files}}))
    entrypoint = root / "serverFilesCourse" / "backprop_kit" / "run.sh"
    done = subprocess.run(["bash", str(entrypoint)], cwd=root, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "AUTOGRADER_PRAIRIELEARN_ROOT": str(root),
                               "AUTOGRADER_PRAIRIELEARN_PYTHON": sys.executable, **env})
    assert done.returncode == 0, done.stderr
    path = root / "results" / "results.json"
    results = json.loads(path.read_text())
    validate(results, path)
    return results, done.stdout


def correct(d: Path) -> None:
    for name in ("engine.py", "nn.py", "train.py"):
        shutil.copy(KIT_ROOT / "solutions" / "micrograd" / name, d / name)


def buggy(d: Path) -> None:
    correct(d)
    (d / "engine.py").write_text((d / "engine.py").read_text().replace(MUL_GRAD, "other.grad = self.data * out.grad"))


def empty(d: Path) -> None:
    pass


def hostile(d: Path) -> None:
    """Reads the secrets in every mul case and prints them, and writes a results.json of its own."""
    correct(d)
    secret = d.parent / "tests"
    results = d.parent / "results" / "results.json"
    spy = (f"import glob as _g\n_S = {str(secret)!r}\n"
           "def _leak():\n    out = []\n"
           "    for p in _g.glob(_S + '/*') + [_S + '/assignment.toml']:\n"
           "        try:\n            out.append(open(p).read()[:600])\n"
           "        except Exception as e:\n            out.append(repr(e))\n"
           f"    try:\n        open({str(results)!r}, 'w').write('{{\"score\": 1, \"gradable\": true}}')\n"
           "    except Exception as e:\n        out.append(repr(e))\n"
           "    print(out)\n")
    engine = d / "engine.py"
    engine.write_text(spy + engine.read_text().replace(MUL_GRAD, "other.grad = self.data * out.grad; _leak()"))


def kit_grade(upload, tmp_path: Path, monkeypatch, capsys) -> float:
    """What `autograder grade` gives the same files: its score as a share of the maximum."""
    folder = tmp_path / "same-upload"
    folder.mkdir()
    upload(folder)
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    capsys.readouterr()
    if main(["grade", str(folder), "--format", "json"]) == 2:  # nothing there: one line, no report
        assert "no submission found" in capsys.readouterr().err
        return 0.0
    report = json.loads(capsys.readouterr().out)
    return report["score"] / report["max_score"]


def test_is_the_question_laid_out_as_prairielearn_wants(question):
    info = json.loads((question / QUESTION / "info.json").read_text())
    options = info["externalGradingOptions"]
    assert info["gradingMethod"] == "External" and options["enabled"] is True and options["timeout"] <= 600
    assert options["entrypoint"] == "/grade/serverFilesCourse/backprop_kit/run.sh"
    assert options["serverFilesCourse"] == ["backprop_kit/"]
    assert (question / "serverFilesCourse" / "backprop_kit" / "kit" / "autograder" / "child" / "main.py").is_file()
    html = (question / QUESTION / "question.html").read_text()
    assert '<pl-file-upload file-names="engine.py, nn.py, train.py">' in html and "<pl-external-grader-results>" in html
    assert f"hidden_seed = {SEED}" in (question / QUESTION / "tests" / "assignment.toml").read_text()
    client = "".join(p.read_text() for p in (question / QUESTION / "clientFilesQuestion").iterdir())
    assert "NotImplementedError" in client and SEED not in client   # the starting files, nothing hidden
    assert "bubblewrap" in (question / "serverFilesCourse" / "backprop_kit" / "Dockerfile").read_text()


def test_does_the_homework_slot_keep_a_student_on_one_variant(question):
    """PrairieLearn's Homework default (triesPerVariant 1) makes a new variant after every try below 100%:
    the slot the kit writes keeps one for many tries."""
    slot = json.loads((question / "assessment-slot.json").read_text())
    assert slot["id"] == QUESTION.split("/")[-1] and slot["triesPerVariant"] >= 50
    assert slot["points"] == slot["maxPoints"] > 0


@pytest.mark.parametrize("upload", [correct, buggy, empty], ids=["correct", "buggy", "empty"])
def test_is_the_score_the_one_autograder_grade_gives(question, tmp_path, upload, monkeypatch, capsys):
    results, stdout = run_grader(question, tmp_path / "grade", upload)
    assert results["gradable"] is True
    assert results["score"] == pytest.approx(kit_grade(upload, tmp_path, monkeypatch, capsys))
    assert "backprop-kit: sandbox level" in stdout
    if upload is correct:
        assert results["score"] == 1 and all(t["points"] == t["max_points"] for t in results["tests"])
    if upload is buggy:
        mul = next(t for t in results["tests"] if t["name"].startswith("mul:"))
        assert mul["points"] < mul["max_points"] and "expected" in mul["output"]
        assert "overwrites" in mul["message"]
        assert mul.get("images") and "svg" in mul["images"][0]["url"][:30]   # the failing case's graph


def test_can_a_hostile_upload_neither_read_the_secrets_nor_forge_the_results(question, tmp_path):
    results, _ = run_grader(question, tmp_path / "grade", hostile)
    text = json.dumps(results)
    assert SEED not in text and "hidden_seed" not in text and "fingerprints" not in text
    assert results["gradable"] is True and results["score"] < 1   # its own results.json was not the one kept


def test_does_the_grader_fall_back_where_bubblewrap_cannot_make_namespaces(question, tmp_path):
    """Docker's default seccomp profile refuses bwrap its namespaces: a bwrap that fails as it fails there.
    Run as root (as PrairieLearn runs the grader), the grader says it uses the uid level (chrooted, a uid of
    its own) and grades; the hostile upload reads nothing of the secrets."""
    python = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if os.geteuid() != 0 or not python.is_file():
        pytest.skip("the uid level needs root (as PrairieLearn's containers run the grader) and a system Python")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create a new namespace, likely because "
                                "the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    top = Path(tempfile.mkdtemp(prefix="pl-uid-"))   # not under pytest's 0700 tmp: as /grade is
    top.chmod(0o755)
    try:
        results, stdout = run_grader(question, top / "grade", hostile, PATH=f"{fake}:{os.environ['PATH']}",
                                     AUTOGRADER_PRAIRIELEARN_PYTHON=str(python))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert "backprop-kit: sandbox level uid" in stdout
    text = json.dumps(results)   # what it printed is shown (its mul cases fail): every read was refused
    assert SEED not in text and ("PermissionError" in text or "FileNotFoundError" in text)
    assert results["gradable"] is True and 0.9 < results["score"] < 1


def test_is_it_not_gradable_when_the_kit_itself_cannot_grade(question, tmp_path):
    """The basic level (rlimits only) would let student code read the secrets: not graded, attempt not counted;
    and the kit's own failure (its goldens damaged) the same, never a traceback to the student."""
    results, stdout = run_grader(question, tmp_path / "a", correct, AUTOGRADER_SANDBOX="basic")
    assert results["gradable"] is False and "not your code's fault" in results["message"]
    assert "sandbox level basic" in stdout
    broken = tmp_path / "b"

    def damage_goldens(d: Path) -> None:
        correct(d)
        (d.parent / "tests" / "goldens.json").write_text("{not json")

    results, _ = run_grader(question, broken, damage_goldens)
    assert results["gradable"] is False and "Traceback" not in json.dumps(results)


def test_is_a_public_seed_or_a_used_folder_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_HIDDEN_SEED", raising=False)
    assert main(["export", "prairielearn", str(tmp_path / "a"), "--config", str(KIT_ROOT / "assignment.toml")]) == 2
    assert "hidden seed of your own" in capsys.readouterr().err and not (tmp_path / "a").exists()
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "mine.txt").write_text("mine")
    assert main(["export", "prairielearn", str(tmp_path / "b")]) == 2
    assert "not an empty folder" in capsys.readouterr().err and os.listdir(tmp_path / "b") == ["mine.txt"]
