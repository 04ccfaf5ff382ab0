"""Does a student's variant, and their score, come out the same from every place that grades it?

The handout's check (its variant.json), `autograder grade --student`, a class's batch, and the Gradescope
zip (the submitter's SID in submission_metadata.json); what an edition can't carry (an extra operation per
student in nbgrader's one release, a notebook edition without --roster) is said in one line.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.exercises.variant_source import write_package
from autograder.variants.assign import variant_of
from autograder.config import from_mapping
from autograder.tasks import VARIANT_OPS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "editions"))
from test_gradescope import run_autograder  # noqa: E402

TOML = 'hidden_seed = 424242\n\n[variants]\npoints = 6\n'
ROSTER = "id,name\nada_7,Ada\nbob_33,Bob\n"
COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
# every dimension but the seed varied, from the whole pool: the worked examples' numbers travel too
EVERY_TOML = TOML + 'vary = ["op", "activation", "worked"]\npool = [{}]\n'.format(
    ", ".join(f'"{op}"' for op in VARIANT_OPS))
EVERY = from_mapping({"hidden_seed": 424242, "variants": {"points": 6, "vary": ["op", "activation", "worked"],
                                                          "pool": list(VARIANT_OPS)}})


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    (root / "assignment.toml").write_text(TOML)
    (root / "roster.csv").write_text(ROSTER)
    return root


@pytest.fixture(scope="module")
def every_course(tmp_path_factory):
    root = tmp_path_factory.mktemp("every")
    (root / "assignment.toml").write_text(EVERY_TOML)
    (root / "roster.csv").write_text(ROSTER)
    return root


def _solve(folder: Path, student: str, rubric=COURSE) -> Path:
    """folder/micrograd: the student's own variant's solution."""
    write_package(folder, variant_of(rubric, student), solution=True)
    return folder


def _score(report_json: str) -> tuple[float, str]:
    data = json.loads(report_json)
    return data["score"], data["variant"]["op"]


def test_do_the_handout_the_grade_command_and_the_gradescope_zip_agree(course, tmp_path, capsys):
    """bob_33's solution: the same variant and full marks from the handout's check, `grade --student` and the zip;
    ada_7's code uploaded as bob_33's loses bob_33's extra operation there too."""
    handouts = tmp_path / "handouts"
    assert main(["handout", str(handouts), "--config", str(course / "assignment.toml"),
                 "--roster", str(course / "roster.csv")]) == 0
    bob = handouts / "bob_33"
    assert json.loads((bob / "autograder" / "variant.json").read_text())["variant"]["student"] == "bob_33"
    assert "424242" not in (bob / "assignment.toml").read_text() and "## Your variant" in (bob / "README.md").read_text()
    _solve(bob, "bob_33")
    check = subprocess.run([sys.executable, "-m", "autograder", "check", "--format", "json"], cwd=bob,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stderr
    own = variant_of(COURSE, "bob_33")
    assert _score(check.stdout) == (106.0, own.op)

    capsys.readouterr()
    assert main(["grade", str(bob), "--student", "bob_33", "--config", str(course / "assignment.toml"),
                 "--format", "json"]) == 0
    assert _score(capsys.readouterr().out) == (106.0, own.op)

    zip_path = tmp_path / "gs.zip"
    assert main(["export", "gradescope", str(zip_path), "--config", str(course / "assignment.toml"),
                 "--roster", str(course / "roster.csv")]) == 0

    def upload(student):
        def put(folder: Path):
            _solve(folder, student)
            (folder.parent / "submission_metadata.json").write_text(json.dumps({"users": [{"sid": "bob_33"}]}))
        return put
    results = run_autograder(zip_path, tmp_path / "gs-own", upload("bob_33"))
    assert results["score"] == 106
    copied = run_autograder(zip_path, tmp_path / "gs-copy", upload("ada_7"))
    assert copied["score"] == 100  # every base task, and not bob_33's extra operation


def test_does_every_dimension_travel_from_the_handout_to_the_grade_command(every_course, tmp_path, capsys):
    """With the worked examples' numbers varied too (and power in the pool): the handout's variant.json carries
    them, its check and `grade --student` grade the same variant with the same full marks."""
    handouts = tmp_path / "handouts"
    assert main(["handout", str(handouts), "--config", str(every_course / "assignment.toml"),
                 "--roster", str(every_course / "roster.csv")]) == 0
    own = variant_of(EVERY, "bob_33")
    bob = handouts / "bob_33"
    assert json.loads((bob / "autograder" / "variant.json").read_text())["variant"]["worked"] == own.worked
    _solve(bob, "bob_33", EVERY)
    check = subprocess.run([sys.executable, "-m", "autograder", "check", "--format", "json"], cwd=bob,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stderr
    checked = json.loads(check.stdout)
    assert (checked["score"], checked["variant"]["worked"]) == (106.0, own.worked)
    capsys.readouterr()
    assert main(["grade", str(bob), "--student", "bob_33", "--config", str(every_course / "assignment.toml"),
                 "--format", "json"]) == 0
    graded = json.loads(capsys.readouterr().out)
    assert (graded["score"], graded["variant"]) == (106.0, checked["variant"])


def test_is_a_submitter_outside_the_roster_told_so_on_gradescope(course, tmp_path):
    zip_path = tmp_path / "gs.zip"
    assert main(["export", "gradescope", str(zip_path), "--config", str(course / "assignment.toml"),
                 "--roster", str(course / "roster.csv")]) == 0

    def upload(folder: Path):
        _solve(folder, "zoe_99")
        (folder.parent / "submission_metadata.json").write_text(json.dumps({"users": [{"sid": "zoe_99"}]}))
    results = run_autograder(zip_path, tmp_path / "gs", upload)
    assert results["score"] == 0 and "roster" in results["output"]


@pytest.mark.parametrize("argv, says", [
    (["export", "gradescope", "x.zip"], "--roster"),
    (["export", "otter", "otter-out"], "one master notebook per student"),
    (["export", "nbgrader", "course-out"], "one notebook to the whole class"),
    (["grade", "."], "--student"),
])
def test_does_an_edition_that_cant_carry_variants_say_so_in_one_line(course, tmp_path, capsys, argv, says):
    argv = [a if not a.endswith(("zip", "out")) else str(tmp_path / a) for a in argv]
    assert main(argv + ["--config", str(course / "assignment.toml")]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


def test_is_a_roster_without_an_id_column_one_line(course, tmp_path, capsys):
    bad = tmp_path / "roster.csv"
    bad.write_text("name\nAda\n")
    assert main(["handout", str(tmp_path / "h"), "--config", str(course / "assignment.toml"),
                 "--roster", str(bad)]) == 2
    assert "`id` column" in capsys.readouterr().err
