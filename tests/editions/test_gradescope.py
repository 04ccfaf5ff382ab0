"""Does the Gradescope autograder zip grade whatever a student uploads into a results.json that follows
Gradescope's specification, always, and keep the hidden seed and goldens from the student?

Gradescope's facts (gradescope/autograder_samples, docs/specs.md): the zip holds setup.sh and
run_autograder at its root and is unpacked into /autograder/source; run_autograder runs with
/autograder as its working directory, the upload in /autograder/submission, and must write
/autograder/results/results.json: optional top-level score, execution_time, output, visibility,
stdout_visibility, extra_data, tests[] of {score, max_score, name, number, output, tags, visibility,
extra_data} (status and output_format in newer versions); visibility is one of hidden,
after_due_date, after_published, visible. Each run here is the real run_autograder script, in a
temporary /autograder tree, with the test's Python standing in for the image's venv.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.config import load_rubric
from autograder.grading import grade_path
from autograder.notebooks.solution_cells import module_source
from autograder.paths import KIT_ROOT
from notebook_mistakes import SEVERAL, with_mistake

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "handout"))
from pythons import oldest_python  # noqa: E402

SEED = "987654321"
TOP_KEYS = {"score", "execution_time", "output", "output_format", "visibility", "stdout_visibility",
            "extra_data", "tests", "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "number", "output", "output_format", "tags", "visibility",
             "extra_data", "name_format"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def validate(results: dict) -> None:
    """results.json as Gradescope's specification has it (see the module's docstring)."""
    assert set(results) <= TOP_KEYS, set(results) - TOP_KEYS
    assert isinstance(results["score"], (int, float)) and isinstance(results["tests"], list)
    assert isinstance(results.get("execution_time", 0), int) and isinstance(results.get("output", ""), str)
    assert results.get("stdout_visibility", "hidden") in VISIBILITY
    for test in results["tests"]:
        assert set(test) <= TEST_KEYS, set(test) - TEST_KEYS
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"] or test["max_score"] == 0 == test["score"]
        assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITY
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
    assert sum(t["score"] for t in results["tests"]) == pytest.approx(results["score"])


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory, monkeypatch_module):
    monkeypatch_module.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    dest = tmp_path_factory.mktemp("gs") / "autograder.zip"
    assert main(["export", "gradescope", str(dest)]) == 0
    return dest


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def run_autograder(zip_path: Path, root: Path, upload, before=None, **env) -> dict:
    """Unpack the zip as Gradescope does, put the upload in submission/, run the real run_autograder.
    Its stdout (the autograder's output, which only the instructor sees) is put under STDOUT."""
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(root / "source")
    (root / "submission").mkdir()
    upload(root / "submission")
    if before:
        before()
    script = root / "source" / "run_autograder"
    script.chmod(0o755)
    done = subprocess.run(["bash", str(script)], cwd=root, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "AUTOGRADER_GRADESCOPE_ROOT": str(root),
                               "AUTOGRADER_GRADESCOPE_PYTHON": sys.executable, **env})
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    validate(results)
    return {**results, STDOUT: done.stdout}


STDOUT = "(run_autograder's stdout)"


def seen_by_students(results: dict) -> str:
    """results.json as text, without run_autograder's stdout (which only the instructor sees)."""
    return json.dumps({k: v for k, v in results.items() if k != STDOUT})


def solution(folder: Path) -> None:
    shutil.copytree(KIT_ROOT / "solutions" / "micrograd", folder / "micrograd")


def test_is_the_zip_laid_out_as_gradescope_and_the_trust_line_want(autograder_zip):
    with zipfile.ZipFile(autograder_zip) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        requirements = zf.read("requirements.txt").decode()
        toml = zf.read("secret/assignment.toml").decode()
    for name in ("setup.sh", "run_autograder"):
        assert stat.S_IMODE(infos[name].external_attr >> 16) == 0o755
    assert all(stat.S_IMODE(i.external_attr >> 16) == 0o600 for n, i in infos.items() if n.startswith("secret/"))
    assert f"hidden_seed = {SEED}" in toml
    assert not any(n.startswith(("reference/", "solutions/", "kit/reference")) or "public_goldens" in n for n in infos)
    assert "kit/autograder/child/main.py" in infos and "kit/autograder/engines/torch_adapter.py" not in infos
    assert "torch" not in requirements and "numpy" in requirements
    assert 'tomli>=2; python_version < "3.11"' in requirements  # Ubuntu 22.04 images have Python 3.10


def test_does_a_correct_upload_get_full_marks_from_the_shipped_goldens(autograder_zip, tmp_path):
    results = run_autograder(autograder_zip, tmp_path, solution)
    assert results["score"] == 100
    visible = [t for t in results["tests"] if t["visibility"] == "visible"]
    assert len(visible) == 14 and all(t["status"] == "passed" for t in visible)
    hidden = [t for t in results["tests"] if "hidden" in t["tags"]]
    assert hidden and all(t["visibility"] == "after_published" and t["max_score"] == 0 for t in hidden)


@pytest.mark.parametrize("upload, score", [
    (lambda d: shutil.copytree(KIT_ROOT / "exercises" / "micrograd", d / "micrograd"), 0),
    (lambda d: (d / "engine.py").write_text("class Value(:\n"), 0),
    (lambda d: shutil.make_archive(str(d / "work"), "zip", KIT_ROOT / "solutions"), 100),
    (lambda d: None, 0),
])
def test_does_every_upload_get_a_results_json(autograder_zip, tmp_path, upload, score):
    """Stubs, a syntax error, a zip of the package, nothing at all."""
    results = run_autograder(autograder_zip, tmp_path, upload)
    assert results["score"] == score
    if score == 0:
        assert results["output"].startswith("backprop-kit: 0/")


MUL_GRAD = "other.grad += self.data * out.grad"


def mul_written(line: str):
    """An upload: the solutions with the line of mul's _backward that adds other's grad written as `line`."""
    def upload(d):
        solution(d)
        engine = d / "micrograd" / "engine.py"
        engine.write_text(engine.read_text().replace(MUL_GRAD, line))
    return upload


def mul_test(results: dict) -> dict:
    return next(t for t in results["tests"] if t["name"].startswith("mul:"))


def test_does_a_failing_public_case_say_expected_got_and_why(autograder_zip, tmp_path):
    results = run_autograder(autograder_zip, tmp_path, mul_written("other.grad = self.data * out.grad"))
    mul = mul_test(results)
    assert mul["status"] == "failed" and 0 < mul["score"] < mul["max_score"]
    assert "expected" in mul["output"] and "hint:" in mul["output"]
    assert "Rule: `x.grad = ...` in *'s _backward overwrites" in mul["output"]  # from the shipped predictions
    assert "Next: The fix: `+=` in place of `=` on micrograd/engine.py line 51" in mul["output"]
    assert results["score"] == pytest.approx(100 - (5 - mul["score"]))


def test_does_an_endless_loop_cost_its_task_only(autograder_zip, tmp_path):
    """mul's _backward never returns: its cases time out (a deadline per case), the rest is graded."""
    results = run_autograder(autograder_zip, tmp_path, mul_written(MUL_GRAD + "\n            while True: pass"))
    mul = mul_test(results)
    assert mul["status"] == "failed" and mul["score"] == 0 and "an endless loop?" in mul["output"]
    assert results["score"] == pytest.approx(100 - mul["max_score"])


def hostile(secret: Path):
    """Reads the secrets at import and in every mul case, prints them, and writes a results.json of its own."""
    def upload(d):
        solution(d)
        engine = d / "micrograd" / "engine.py"
        spy = (f"import glob as _g\n_S = {str(secret)!r}\n"
               "def _leak():\n"
               "    out = []\n"
               "    for p in [_S + '/assignment.toml', _S + '/goldens.json'] + _g.glob(_S + '/*'):\n"
               "        try:\n            out.append(open(p).read()[:600])\n"
               "        except Exception as e:\n            out.append(repr(e))\n"
               "    try:\n"
               f"        open({str(secret.parent.parent / 'results' / 'results.json')!r}, 'w').write('{{\"score\": 100}}')\n"
               "    except Exception as e:\n        out.append(repr(e))\n"
               "    print(out)\n_leak()\n")
        text = engine.read_text().replace(MUL_GRAD, "other.grad = self.data * out.grad; _leak()")
        engine.write_text(spy + text)
    return upload


def test_can_a_hostile_upload_neither_read_the_secrets_nor_forge_the_results(autograder_zip, tmp_path):
    results = run_autograder(autograder_zip, tmp_path, hostile(tmp_path / "source" / "secret"))
    text = seen_by_students(results)
    assert SEED not in text and "hidden_seed" not in text and "fingerprints" not in text
    goldens = json.loads((tmp_path / "source" / "secret" / "goldens.json").read_text())["goldens"]
    hidden_numbers = {f"{v:.6g}" for cid, g in goldens.items() if "/hidden-" in cid for v in _numbers(g)}
    public_numbers = {f"{v:.6g}" for cid, g in goldens.items() if "/hidden-" not in cid for v in _numbers(g)}
    # numbers of 6 significant digits (short ones, like a public input -1.213, can coincide)
    leaked = [n for n in hidden_numbers - public_numbers if len(n.lstrip("-")) >= 7 and n in text]
    assert not leaked, leaked[:5]
    assert results["score"] < 100  # its own results.json was not the one kept
    assert "sandbox: basic" not in results[STDOUT] and "sandbox:" not in results["output"]  # never basic here


def _numbers(golden):
    """Every number in a golden, the classic mistakes' predictions included."""
    for v in golden.values():
        if isinstance(v, dict):
            yield from _numbers(v)
        else:
            yield from (v if isinstance(v, list) else [v])


def test_does_the_basic_level_refuse_to_run_student_code_next_to_the_secrets(autograder_zip, tmp_path):
    results = run_autograder(autograder_zip, tmp_path, hostile(tmp_path / "source" / "secret"),
                             AUTOGRADER_SANDBOX="basic")
    assert results["score"] == 0 and "sandbox is not available" in results["output"]
    assert SEED not in seen_by_students(results)


@pytest.mark.slow
def test_does_the_zip_grade_on_python_3_10_with_only_its_requirements_installed(autograder_zip, tmp_path):
    """As setup.sh builds the image's venv, with Ubuntu 22.04's Python: the rubric is read with tomli there."""
    python = oldest_python()
    if python is None:
        pytest.skip("no Python 3.10 on this machine")
    with zipfile.ZipFile(autograder_zip) as zf:
        (tmp_path / "requirements.txt").write_bytes(zf.read("requirements.txt"))
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, capture_output=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-r", str(tmp_path / "requirements.txt")],
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-2000:]
    results = run_autograder(autograder_zip, tmp_path / "root", solution,
                             AUTOGRADER_GRADESCOPE_PYTHON=str(venv / "bin" / "python"))
    assert results["score"] == 100, results["output"]


def test_is_a_public_seed_or_a_used_file_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_HIDDEN_SEED", raising=False)
    assert main(["export", "gradescope", str(tmp_path / "a.zip"), "--config", str(KIT_ROOT / "assignment.toml")]) == 2
    assert "hidden seed of your own" in capsys.readouterr().err and not (tmp_path / "a.zip").exists()
    monkeypatch.setenv("AUTOGRADER_HIDDEN_SEED", SEED)
    (tmp_path / "b.zip").write_text("mine")
    assert main(["export", "gradescope", str(tmp_path / "b.zip")]) == 2
    assert "exists" in capsys.readouterr().err and (tmp_path / "b.zip").read_text() == "mine"


def test_would_the_basic_level_leak_which_is_why_it_is_refused(autograder_zip, tmp_path):
    """Forced to run at the basic level, the same upload reads the seed and prints it into its feedback:
    the leak the refusal above prevents (and proof that the leak checks above can fail)."""
    results = run_autograder(autograder_zip, tmp_path, hostile(tmp_path / "source" / "secret"),
                             AUTOGRADER_SANDBOX="basic", AUTOGRADER_GRADESCOPE_ALLOW_BASIC="1")
    assert SEED in seen_by_students(results)


def test_does_the_uid_level_hold_the_secrets_where_bubblewrap_cannot_run(autograder_zip, tmp_path_factory):
    """A Gradescope container may refuse bubblewrap its namespaces: then student code runs as nobody (the
    uid level). On a tree with setup.sh's own permissions and the image's system Python, the hostile
    upload can neither read the secrets nor forge the results, and an honest one gets full marks."""
    python = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if os.geteuid() != 0 or not python.is_file():
        pytest.skip("the uid level needs root and a system Python (as on Gradescope's image)")
    scores = {}
    for name, upload in (("hostile", None), ("honest", solution)):
        root = Path(tempfile.mkdtemp(prefix="gs-uid-"))  # not under pytest's 0700 tmp: as /autograder is
        root.chmod(0o755)
        try:
            results = run_autograder(autograder_zip, root, upload or hostile(root / "source" / "secret"),
                                     before=lambda: _setup_permissions(root), AUTOGRADER_SANDBOX="uid",
                                     AUTOGRADER_GRADESCOPE_PYTHON=str(python))
        finally:
            shutil.rmtree(root, ignore_errors=True)
        # what the sandbox can't hold is for the instructor's eyes (stdout), not the student's (output)
        assert "backprop-kit: sandbox: uid" in results[STDOUT] and "sandbox:" not in results["output"]
        scores[name] = results["score"]
        text = seen_by_students(results)
        assert SEED not in text and "hidden_seed" not in text
        if name == "hostile":  # what it printed is shown (its mul cases fail): every read was refused
            # (the secrets are not in the uid level's root at all; the results folder neither)
            assert ("PermissionError" in text or "FileNotFoundError" in text) and "fingerprints" not in text
    assert scores["honest"] == 100 and 90 < scores["hostile"] < 100  # its own results.json was not kept


def _setup_permissions(root: Path) -> None:
    """setup.sh's own chmod lines, run on the tree at root (its /autograder/venv: root/venv)."""
    (root / "venv").mkdir(exist_ok=True)
    lines = [line.replace("/autograder/venv", str(root / "venv"))
             for line in (root / "source" / "setup.sh").read_text().splitlines() if line.startswith("chmod")]
    assert len(lines) >= 4, "setup.sh no longer sets the tree's permissions"
    subprocess.run(["bash", "-euc", "\n".join(lines)], env={**os.environ, "SOURCE": str(root / "source")},
                   check=True)


@pytest.mark.parametrize("mistakes", sorted(SEVERAL))
def test_is_a_notebook_with_several_mistakes_scored_as_autograder_grade_scores_it(autograder_zip, tmp_path, mistakes):
    """Per task, the zip's results.json gives what `autograder grade` gives the same notebook (the otter and
    nbgrader editions are held to the same notebooks)."""
    import nbformat

    notebook = tmp_path / "upload" / "backprop.ipynb"
    notebook.parent.mkdir()
    cells = [nbformat.v4.new_code_cell(with_mistake(module_source(m), mistakes)) for m in ("engine", "nn", "train")]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), str(notebook))
    results = run_autograder(autograder_zip, tmp_path / "gs", lambda d: shutil.copy(notebook, d))
    theirs = {t["name"].split(":")[0]: t["score"] for t in results["tests"] if t["max_score"] > 0}
    rubric = replace(load_rubric(KIT_ROOT / "assignment.toml"), hidden_seed=int(SEED))
    ours = {t.id: t.score for t in grade_path(notebook, rubric=rubric, include_hidden=True).tasks}
    assert theirs == ours and sum(ours.values()) < 100
