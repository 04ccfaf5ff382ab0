"""Does one student's code get the same variant and the same score from every route that grades it?

bob_33's own variant, solved right and solved with its extra operation's derivative doubled: the handout's
`check` (public cases), `autograder grade --student`, the Gradescope zip (bob_33's SID in
submission_metadata.json), bob_33's own otter notebook (`autograder grade` on it, the Gradescope zip given it,
and, slow, otter's own `otter assign` and `otter run`), and a PrairieLearn variant of the question (its own kit variant, from
server.py's generate()). The doubled derivative fails every case of the extra operation, public and
hidden, so the public check and the full grade agree on it too: 106 and 100 of 106.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.config import from_mapping
from autograder.exercises.variant_source import ANCHOR, write_package
from autograder.notebooks.solution_cells import module_source
from autograder.variants.assign import variant_of
from autograder.variants.model import Variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_gradescope import run_autograder  # noqa: E402
from test_prairielearn import run_grader  # noqa: E402

TOML = 'hidden_seed = 424242\n\n[variants]\npoints = 6\n'
ROSTER = "id,name\nada_7,Ada\nbob_33,Bob\n"
COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
WHO = "bob_33"
OWN = variant_of(COURSE, WHO)
SCORES = {"right": 106.0, "doubled": 100.0}   # every task; every task but the extra operation's 6 points


def doubled(engine: str, op: str) -> str:
    """engine.py with the extra operation's local derivative doubled (its method alone)."""
    start = engine.index(f"    def {op}(self):")
    end = engine.index(ANCHOR, start)
    return engine[:start] + engine[start:end].replace("self.grad += ", "self.grad += 2 * ") + engine[end:]


def solve(folder: Path, how: str, variant: Variant = OWN) -> Path:
    """folder/micrograd: the variant's solution, right or with its extra operation's derivative doubled."""
    package = write_package(folder, variant, solution=True)
    if how == "doubled":
        engine = package / "engine.py"
        engine.write_text(doubled(engine.read_text(), variant.op))
    return folder


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("routes")
    (root / "assignment.toml").write_text(TOML)
    (root / "roster.csv").write_text(ROSTER)
    config = ["--config", str(root / "assignment.toml")]
    roster = ["--roster", str(root / "roster.csv")]
    assert main(["handout", str(root / "handouts"), *config, *roster]) == 0
    assert main(["export", "gradescope", str(root / "gs.zip"), *config, *roster]) == 0
    assert main(["export", "otter", str(root / "otter"), *config, *roster]) == 0
    assert main(["export", "prairielearn", str(root / "pl"), *config]) == 0
    return root


def _report(out: str) -> tuple[float, str]:
    data = json.loads(out)
    return data["score"], data["variant"]["op"]


def _grade(path: Path, student: str, course: Path, capsys) -> tuple[float, str]:
    capsys.readouterr()
    main(["grade", str(path), "--student", student, "--config", str(course / "assignment.toml"), "--format", "json"])
    return _report(capsys.readouterr().out)


def notebook(template: Path, dest: Path, how: str) -> Path:
    """The student's own otter notebook (its dist/student copy, or its master) with its code cells solved."""
    nb = nbformat.read(template, as_version=4)
    for cell in nb.cells:
        for module, key in (("engine", "class Value"), ("nn", "class Neuron"), ("train", "def mse_loss")):
            if cell.cell_type == "code" and key in cell.source:
                source = module_source(module, variant=OWN)
                cell.source = doubled(source, OWN.op) if module == "engine" and how == "doubled" else source
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(dest))
    return dest


@pytest.mark.parametrize("how", ["right", "doubled"])
def test_do_check_grade_gradescope_and_the_otter_notebook_agree(course, tmp_path, capsys, how):
    want = (SCORES[how], OWN.op)
    handout = tmp_path / "handout"
    shutil.copytree(course / "handouts" / WHO, handout)
    shutil.rmtree(handout / "micrograd")
    solve(handout, how)
    check = subprocess.run([sys.executable, "-m", "autograder", "check", "--format", "json"], cwd=handout,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == (0 if how == "right" else 1), check.stderr
    assert _report(check.stdout) == want, "the handout's check"

    assert _grade(solve(tmp_path / "graded", how), WHO, course, capsys) == want, "autograder grade --student"

    def upload(folder: Path):
        solve(folder, how)
        (folder.parent / "submission_metadata.json").write_text(json.dumps({"users": [{"sid": WHO}]}))
    results = run_autograder(course / "gs.zip", tmp_path / "gs", upload)
    assert results["score"] == SCORES[how], "the Gradescope zip"
    assert OWN.label in json.dumps(results), "the Gradescope zip names the variant it graded"

    nb = notebook(course / "otter" / WHO / "backprop.ipynb", tmp_path / "nb" / "backprop.ipynb", how)
    assert _grade(nb, WHO, course, capsys) == want, "autograder grade on the student's own otter notebook"

    def upload_notebook(folder: Path):
        shutil.copy(nb, folder / nb.name)
        (folder.parent / "submission_metadata.json").write_text(json.dumps({"users": [{"sid": WHO}]}))
    results = run_autograder(course / "gs.zip", tmp_path / "gs-nb", upload_notebook)
    assert results["score"] == SCORES[how], "the Gradescope zip, given the student's otter notebook"


@pytest.mark.parametrize("how", ["right", "doubled"])
def test_does_a_prairielearn_variant_grade_as_its_kit_variant(course, tmp_path, capsys, how):
    """server.py's generate() (from the variant's seed) puts a kit variant in the params; the
    grader gives the score `autograder grade --student <that variant's id>` gives, out of the question's points."""
    question = course / "pl" / "questions" / "backprop-hw1"
    server: dict = {}
    exec((question / "server.py").read_text(), server)
    data = {"params": {}, "variant_seed": 7}
    server["generate"](data)
    variant = Variant.from_json(data["params"]["variant"])
    assert variant.op and (question / "clientFilesQuestion" / data["params"]["engine"]).is_file()
    assert f"def {variant.op}(self):" in (question / "clientFilesQuestion" / data["params"]["engine"]).read_text()

    def upload(folder: Path):
        for path in (solve(tmp_path / "files", how, variant) / "micrograd").glob("*.py"):
            shutil.copy(path, folder / path.name)
    results, _ = run_grader(course / "pl", tmp_path / "grade", upload, params=data["params"])
    score, op = _grade(solve(tmp_path / "kit", how, variant), variant.student, course, capsys)
    assert op == variant.op and abs(results["score"] - score / 106) < 1e-9, (results["score"], score)
    assert variant.label in results["message"]
    assert score == SCORES[how]


@pytest.mark.slow
@pytest.mark.parametrize("how", ["right", "doubled"])
def test_does_otter_grade_the_students_own_notebook_as_the_kit_does(course, tmp_path, how):
    """`otter assign` on bob_33's master notebook, then `otter run` with its autograder zip: the questions'
    scores add up to the kit's, the extra operation's question included."""
    otter = Path(sys.executable).with_name("otter")
    master = tmp_path / "master"
    shutil.copytree(course / "otter" / WHO, master)
    done = subprocess.run([str(otter), "assign", "backprop.ipynb", str(tmp_path / "dist")], cwd=master,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    student = tmp_path / "dist" / "student" / "backprop.ipynb"
    assert f"def {OWN.op}(self):" in student.read_text() and "BEGIN SOLUTION" not in student.read_text()
    nb = notebook(student, tmp_path / "work" / "backprop.ipynb", how)
    zip_path = next((tmp_path / "dist" / "autograder").glob("*.zip"))
    (tmp_path / "out").mkdir()
    done = subprocess.run([str(otter), "run", "-a", str(zip_path), str(nb), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    tests = json.loads((tmp_path / "out" / "results.json").read_text())["tests"]
    scores = {t["name"]: t["score"] for t in tests if "score" in t}
    assert abs(sum(scores.values()) - SCORES[how]) < 1e-4, scores
    assert abs(scores[OWN.op] - (6.0 if how == "right" else 0.0)) < 1e-4
