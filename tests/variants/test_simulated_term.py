"""A simulated term, as an instructor and a TA would run it from the README's commands:

60 rostered students with variants get their handouts; 3 join late (added to the roster and the handouts
folder); one never submits; one submission is of no one on the roster; one student hands in a solution of
the absent student's handout; the class is graded with the roster, the late ones graded alone into the same
folder, the scores pushed to an LTI 1.3 platform on 127.0.0.1 (a course path with capitals, members three a
page); mid-term the tolerance is loosened and the class regraded: the change is listed with its reason, and
the next push sends the changed score alone.
"""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from autograder.cli import main
from autograder.config import from_mapping
from autograder.exercises.variant_source import write_package
from autograder.variants.assign import variant_of
from simulated_class import Student, write_class

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lms" / "lti"))
from lti_platform import CLIENT_ID, DEPLOYMENT_ID, ISSUER, Platform  # noqa: E402

from autograder.lms.lti.service import public_jwk  # noqa: E402

pytestmark = pytest.mark.slow   # a class of 63 graded twice in the sandbox, and a platform served

TOML = 'hidden_seed = 424242\nrel_tol = {tol}\n\n[variants]\npoints = 6\n'
COURSE = from_mapping({"hidden_seed": 424242, "variants": {"points": 6}})
ROSTER = [f"s{1000 + i}" for i in range(60)]
LATE = ["s2001", "s2002", "s2003"]
ABSENT, COPIER, SLOPPY, BUGGY, STRANGER = "s1059", "s1007", "s1011", "s1013", "x9999"


def pem(key) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def cli(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def rows(out: Path) -> dict[str, dict]:
    return {r["student"]: r for r in csv.DictReader((out / "gradebook.csv").read_text(encoding="utf-8").splitlines())}


def hand_in(root: Path, ids: list[str]) -> None:
    """Each id's folder: correct, except the copier (the absent student's variant solved), a buggy one, and one
    whose exp closure is off by a relative 1e-5 (wrong at rel_tol 1e-6, right at 1e-4)."""
    kinds = {COPIER: Student(COPIER, "copy", ABSENT), BUGGY: Student(BUGGY, "buggy")}
    write_class(root, [kinds.get(i, Student(i, "correct")) for i in ids], COURSE)
    if SLOPPY in ids:
        engine = root / SLOPPY / "micrograd" / "engine.py"
        text = engine.read_text(encoding="utf-8")
        engine.write_text(text.replace("self.grad += out.data * out.grad", "self.grad += out.data * 1.00001 * out.grad", 1),
                          encoding="utf-8")


def test_does_a_term_end_with_every_row_right_and_only_changed_scores_pushed(tmp_path, capsys):
    # the course: its rubric, its roster, everyone's handout
    (tmp_path / "assignment.toml").write_text(TOML.format(tol="1e-06"))
    (tmp_path / "roster.csv").write_text("id,name\n" + "".join(f"{i},Student {i}\n" for i in ROSTER))
    config = ["--config", tmp_path / "assignment.toml"]
    handouts = tmp_path / "handouts"
    assert cli(capsys, "handout", handouts, "--roster", tmp_path / "roster.csv", *config)[0] == 0
    first = (handouts / ROSTER[0] / "micrograd" / "engine.py").stat().st_mtime_ns

    # three join late: the roster grows, their handouts are added, nobody else's touched
    (tmp_path / "roster.csv").write_text((tmp_path / "roster.csv").read_text() + "".join(f"{i},Late {i}\n" for i in LATE))
    assert cli(capsys, "handout", handouts, "--roster", tmp_path / "roster.csv", *config)[0] == 0
    assert all((handouts / i).is_dir() for i in LATE)
    assert (handouts / ROSTER[0] / "micrograd" / "engine.py").stat().st_mtime_ns == first

    # the class hands in (not the absent student); one submission is of no one on the roster
    submitted = [i for i in ROSTER if i != ABSENT]
    hand_in(tmp_path / "class", submitted)
    write_package(tmp_path / "class" / STRANGER, variant_of(COURSE, STRANGER), solution=True)
    out = tmp_path / "graded"
    code, said = cli(capsys, "grade", tmp_path / "class", "--out", out, "--roster", handouts, "--workers", 2, *config)
    assert code == 1, said   # a submission not graded (the stranger's): something to look at
    assert f"not on the roster (1; not graded: the variant its id draws was handed to no one): {STRANGER}" in said
    assert ABSENT in said

    # the late ones hand in, and are graded alone into the class's folder (its roster remembered)
    hand_in(tmp_path / "late", LATE)
    code, said = cli(capsys, "grade", tmp_path / "late", "--out", out, "--workers", 2, *config)
    assert "kept the rows of 59 student(s)" in said and "(3 graded now, 59 from before)" in said, said

    book = rows(out)
    assert len(book) == 60 + 3 + 1   # 59 handed in, 3 late, the stranger, the absent student's row
    assert book[STRANGER]["status"] == "unrostered" and "not on the roster" in book[STRANGER]["error"]
    assert book[ABSENT]["status"] == "missing" and book[ABSENT]["variant"] == variant_of(COURSE, ABSENT).label
    assert all(book[i]["status"] == "graded" for i in submitted + LATE)
    full = float(book[ROSTER[0]]["max_score"])
    right = [i for i in submitted + LATE if i not in (COPIER, BUGGY, SLOPPY)]
    assert all(float(book[i]["score"]) == full for i in right)
    assert float(book[SLOPPY]["score"]) < full and float(book[BUGGY]["score"]) < full
    summary = json.loads((out / "summary.json").read_text())
    assert summary["roster"]["missing"] == [ABSENT] and summary["roster"]["unrostered"][0]["submission"] == STRANGER
    (flag,) = summary["forensics"]["flags"]
    assert flag["student"] == COPIER and flag["sources"] == [ABSENT]   # the copy attributed, its source absent

    # the platform: ML101-Fall, members three a page, found by their SIS id (the roster's)
    platform_key, tool_key = (rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2))
    public = platform_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                    serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    members = [{"user_id": f"u-{i}", "lis_person_sourcedid": i, "roles": ["Learner"], "status": "Active"}
               for i in ROSTER + LATE]
    platform = Platform(pem(platform_key), public, {"keys": [public_jwk(pem(tool_key))]}, members,
                        course="ML101-Fall", page_size=3)
    try:
        (tmp_path / "tool.pem").write_text(pem(tool_key))
        (tmp_path / "platform.toml").write_text("\n".join([
            "[platform]", f'issuer = "{ISSUER}"', f'client_id = "{CLIENT_ID}"', f'deployment_id = "{DEPLOYMENT_ID}"',
            f'token_url = "{platform.url}/token"', "[tool]", 'private_key = "tool.pem"',
            "[course]", f'lineitems = "{platform.lineitems_url}"', f'memberships = "{platform.memberships_url}"',
            "[assignment]", 'tag = "hw1"', "score_maximum = 10",
            "[students]", 'member = "lis_person_sourcedid"', 'kit = "student"']) + "\n")
        code, said = cli(capsys, "lms", "push", out, "--lti", tmp_path / "platform.toml")
        assert "62 sent, 0 unchanged" in said and f"not sent: {ABSENT}: no submission" in said
        (item,) = platform.store.lineitems
        assert set(platform.store.scores[item]) == {f"u-{i}" for i in submitted + LATE}
        posts = len(platform.store.posts)

        # mid-term: the tolerance loosened, the class regraded
        (tmp_path / "assignment.toml").write_text(TOML.format(tol="0.0001"))
        code, said = cli(capsys, "grade", tmp_path / "class", tmp_path / "late", "--out", out, "--workers", 2, *config)
        assert "The regrade changed 1 score(s)" in said, said
        (change,) = csv.DictReader((out / "regrade-changes.csv").read_text(encoding="utf-8").splitlines())
        assert change["student"] == SLOPPY and float(change["new_score"]) > float(change["old_score"])
        assert change["tasks"].startswith("exp ") and "the relative tolerance changed (1e-06 -> 0.0001)" in change["why"]
        assert rows(out)[SLOPPY]["score"] == change["new_score"] and len(rows(out)) == 64

        # a dry run says so without the platform; the push sends that one score alone
        code, said = cli(capsys, "lms", "push", out, "--dry-run")
        now = round(10 * float(change["new_score"]) / full, 2)
        assert "1 changed, 0 new" in said and f"would send: {SLOPPY}: {now:g}/10" in said, said
        code, said = cli(capsys, "lms", "push", out, "--lti", tmp_path / "platform.toml")
        assert "1 sent, 61 unchanged" in said and len(platform.store.posts) == posts + 1
        assert platform.store.scores[item][f"u-{SLOPPY}"]["scoreGiven"] == now
        assert all("/ML101-Fall/" in p for p in platform.requested if p != "/token")   # every page as named
    finally:
        platform.close()
