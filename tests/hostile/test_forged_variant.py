"""Can a student make their handout's check grade another student's variant by signing variant.json themselves?

Issue 28, class 5: `check` verified a variant.json against the public key stored in the same file, so
ada_7 rewrote hers to claim bob_33's variant, signed it with a key she made, put bob's solution and
goldens in, and `check` said "Score: 105 / 105" (exit 0). The course's public key now travels apart from
the file (the handout's assignment.toml, `[variants] key`; the instructor's side derives it from the
secret), and only that key is asked: a file signed by any other is refused in one line, exit 2.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.config import from_mapping, load_rubric
from autograder.errors import UserError
from autograder.exercises.variant_source import write_package
from autograder.handout.roster import write_handouts
from autograder.notebooks.support import write_secret
from autograder.variants.assign import for_student, variant_of
from autograder.variants.handout_file import handout_rubric
from autograder.variants.model import Variant
from autograder.variants.signature import public_key_hex, signed

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
REFUSED = "not the variant file this handout came with"


def _self_signed(variant_json: dict, secret: str = "ada's own key, made at home") -> dict:
    """variant.json as the kit wrote it before: the variant, a signature, and the public key of the signer."""
    return {**signed(Variant.from_json(variant_json), secret), "key": public_key_hex(secret)}


@pytest.fixture(scope="module")
def handouts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("forged") / "handouts"
    roster = out.parent / "roster.csv"
    roster.write_text("id\nada_7\nbob_33\n")
    write_handouts(out, rubric=COURSE, roster=roster)
    return out


@pytest.fixture
def ada_as_bob(handouts, tmp_path) -> Path:
    """ada_7's handout claiming bob_33's variant: bob's solution and goldens, variant.json re-signed by ada."""
    ada = tmp_path / "ada_7"
    shutil.copytree(handouts / "ada_7", ada)
    shutil.rmtree(ada / "micrograd")
    write_package(ada, variant_of(COURSE, "bob_33"), solution=True)
    shutil.copy(handouts / "bob_33" / "autograder" / "public_goldens.json", ada / "autograder")
    (ada / "autograder" / "variant.json").write_text(json.dumps(_self_signed(variant_of(COURSE, "bob_33").to_json())))
    return ada


def _check(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "check"], cwd=folder, capture_output=True, text=True,
                          timeout=300)


def test_is_a_variant_json_signed_with_the_students_own_key_refused_in_one_line(ada_as_bob):
    """ada_7's check, on a variant.json claiming bob_33's variant that she signed herself: exit 2, one line."""
    done = _check(ada_as_bob)
    assert done.returncode == 2, (done.returncode, done.stdout[-400:], done.stderr)
    assert not done.stdout and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and REFUSED in done.stderr, done.stderr


def test_does_the_handout_carry_the_courses_key_apart_from_the_variant_file(handouts):
    """The handout's assignment.toml names the course's key; its variant.json names none; untouched, it is read."""
    ada = handouts / "ada_7" / "autograder"
    rubric = load_rubric(handouts / "ada_7" / "assignment.toml")
    assert rubric.variants.key and rubric.variants.secret is None
    assert "key" not in json.loads((ada / "variant.json").read_text())
    assert handout_rubric(rubric, ada).variant == variant_of(COURSE, "ada_7")


def test_is_a_self_signed_file_refused_where_the_key_is_derived_from_the_secret(tmp_path):
    """A notebook edition's kit_secret/ (otter's per-student editions): the key comes from the course's secret
    in its assignment.toml; a variant.json there re-signed with another key is refused, the course's read."""
    secret = tmp_path / "kit_secret"
    write_secret(secret, for_student(COURSE, "ada_7"))
    rubric = load_rubric(secret / "assignment.toml")
    assert handout_rubric(rubric, secret).variant == variant_of(COURSE, "ada_7")
    (secret / "variant.json").write_text(json.dumps(_self_signed(variant_of(COURSE, "bob_33").to_json())))
    with pytest.raises(UserError, match=REFUSED):
        handout_rubric(rubric, secret)


def test_is_a_file_signed_by_another_course_refused(handouts, tmp_path):
    """A genuine variant.json of another course (another secret, its key in the file) is not this course's."""
    ada = tmp_path / "ada_7"
    shutil.copytree(handouts / "ada_7", ada)
    (ada / "autograder" / "variant.json").write_text(
        json.dumps(_self_signed(variant_of(COURSE, "ada_7").to_json(), secret="777777")))
    with pytest.raises(UserError, match=REFUSED):
        handout_rubric(load_rubric(ada / "assignment.toml"), ada / "autograder")


def test_does_grading_draw_the_variant_again_whatever_the_submission_carries(handouts, tmp_path):
    """The instructor's side: ada_7's whole handout handed in, with bob_33's solution, a variant.json she signed
    claiming bob_33's variant and her own key in its assignment.toml: `grade` draws ada_7's variant from her id
    and the course's secret, and grades bob_33's operation as the missing piece it is."""
    from autograder.batch.discover import discover
    from autograder.batch.run import grade_batch

    ada = tmp_path / "class" / "ada_7"
    shutil.copytree(handouts / "ada_7", ada)
    shutil.rmtree(ada / "micrograd")
    write_package(ada, variant_of(COURSE, "bob_33"), solution=True)
    forged = _self_signed(variant_of(COURSE, "bob_33").to_json())
    (ada / "autograder" / "variant.json").write_text(json.dumps(forged))
    toml = ada / "assignment.toml"
    toml.write_text(toml.read_text().replace(load_rubric(toml).variants.key, forged["key"]))
    assert handout_rubric(load_rubric(toml), ada / "autograder").variant == variant_of(COURSE, "bob_33")  # her check
    result = grade_batch(discover([tmp_path / "class"]).entries, tmp_path / "out", rubric=COURSE, workers=1,
                         progress=False)
    report = {row.student: row.report for row in result.rows}["ada_7"]
    assert report.variant == variant_of(COURSE, "ada_7")
    assert report.score < report.max_score


def test_does_a_notebook_editions_check_refuse_a_self_signed_variant(tmp_path):
    """ada_7's own notebook edition (otter's per-student folder: the student's kit beside the notebook), its
    variant.json re-signed by her claiming bob_33's: the notebook's test cells say the one line, grade nothing."""
    from autograder.notebooks.support import write_student_kit

    kit = tmp_path / "ada_7"
    kit.mkdir()
    write_student_kit(kit, for_student(COURSE, "ada_7"))
    (kit / "backprop.ipynb").write_text(json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                                         "display_name": "P"}},
        "cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": [], "execution_count": None}]}))
    (kit / "autograder" / "variant.json").write_text(json.dumps(_self_signed(variant_of(COURSE, "bob_33").to_json())))
    done = subprocess.run([sys.executable, "-c", "from autograder.notebook_check import case; print(case('add/x'))"],
                          cwd=kit, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "False" and REFUSED in done.stdout, (done.stdout, done.stderr[-800:])
