"""Does a student's check know its variant from its handout, never from a variant.json edited into another's?"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.config import from_mapping
from autograder.errors import UserError
from autograder.handout.roster import write_handouts
from autograder.variants.assign import variant_of
from autograder.variants.handout_file import handout_rubric
from autograder.variants.signature import BadSignature, public_key_hex, signed, verified

COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
OTHER = from_mapping({"hidden_seed": 777777, "variants": {"points": 6}})


def test_does_the_courses_signature_hold_its_own_variant_and_no_edit():
    """Is an untouched file read back as the variant signed, and an edited constant or operation refused?"""
    ada = variant_of(COURSE, "ada_7")
    content, course = signed(ada, "424242"), public_key_hex("424242")
    assert verified(content, course) == ada
    for key, value in (("constant", ada.constant + 0.5), ("op", "sin" if ada.op != "sin" else "log"),
                       ("student", "bob_33")):
        edited = json.loads(json.dumps(content))
        edited["variant"][key] = value
        with pytest.raises(BadSignature):
            verified(edited, course)
    with pytest.raises(BadSignature):
        verified(ada.to_json(), course)  # an unsigned file, as the kit wrote before it signed them


def test_is_the_signing_key_the_courses_own():
    """Two courses (two secrets) sign with different keys; the same course always with the same one."""
    ada = variant_of(COURSE, "ada_7")
    assert signed(ada, "424242") == signed(ada, "424242")
    assert public_key_hex("424242") != public_key_hex("777777")
    with pytest.raises(BadSignature):
        verified(signed(ada, "777777"), public_key_hex("424242"))


@pytest.fixture(scope="module")
def handouts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("signed") / "handouts"
    roster = out.parent / "roster.csv"
    roster.write_text("id\nada_7\nbob_33\n")
    write_handouts(out, rubric=COURSE, roster=roster)
    return out


def _check(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "check", "--format", "json"], cwd=folder,
                          capture_output=True, text=True, timeout=300)


def test_does_an_untouched_handout_check_its_own_variant(handouts):
    done = _check(handouts / "ada_7")
    assert done.returncode == 1, done.stderr   # the stubs: nothing written yet
    report = json.loads(done.stdout)
    assert report["variant"]["op"] == variant_of(COURSE, "ada_7").op
    assert handout_rubric(COURSE, handouts / "ada_7" / "autograder").variant == variant_of(COURSE, "ada_7")


def test_is_a_variant_json_edited_into_anothers_refused_in_one_line(handouts, tmp_path):
    """ada_7 writes bob_33's variant into her variant.json (keeping her key and signature): one line, exit 2."""
    import shutil

    ada = tmp_path / "ada_7"
    shutil.copytree(handouts / "ada_7", ada)
    path = ada / "autograder" / "variant.json"
    content = json.loads(path.read_text())
    content["variant"] = variant_of(COURSE, "bob_33").to_json()
    path.write_text(json.dumps(content))
    done = _check(ada)
    assert done.returncode == 2 and not done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not the variant file this handout came with" in done.stderr
    with pytest.raises(UserError):
        handout_rubric(COURSE, ada / "autograder")
    # the handout's pytest route says the same line, without a traceback
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ada,
                            capture_output=True, text=True, timeout=300)
    assert tested.returncode != 0 and "not the variant file this handout came with" in tested.stdout
    assert "Traceback" not in tested.stdout and "raise UserError" not in tested.stdout, tested.stdout
