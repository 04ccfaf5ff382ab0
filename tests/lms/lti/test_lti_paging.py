"""Does a push reach a course whose path has capitals and whose members come three a page, and does a dry
run say what it would send without the platform (from what the kit last sent)?"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lti_platform import Platform  # noqa: E402
from test_lti_push import MEMBERS, config, expected, graded, keys, kept, out, pem, push  # noqa: E402,F401

from autograder.lms.lti.service import public_jwk  # noqa: E402

pytestmark = pytest.mark.slow   # a real platform served on 127.0.0.1, and a class graded for it


@pytest.fixture
def paged(keys):
    """The course ML101-Fall, its members three a page (the teacher first: two of the students on page 2)."""
    public = keys["platform"].public_key().public_bytes(serialization.Encoding.PEM,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    members = [MEMBERS[3], MEMBERS[0], MEMBERS[1], MEMBERS[2]]
    served = Platform(pem(keys["platform"]), public, {"keys": [public_jwk(keys["tool"])]}, members,
                      course="ML101-Fall", page_size=3)
    yield served
    served.close()


def test_does_every_score_reach_a_capitalised_course_with_paged_members(out, paged, keys, tmp_path, capsys):
    code, text = push(out, config(tmp_path, paged, keys["tool"]), capsys)
    assert "3 sent" in text, text
    assert {u: s["scoreGiven"] for u, s in kept(paged).items()} == expected(out)
    pages = [p for p in paged.requested if p.endswith("/names_and_roles")]
    assert len(pages) == 2 and all("/ML101-Fall/" in p for p in pages)   # page 2 asked as the platform named it


def test_does_a_dry_run_work_offline_from_what_was_sent_last(out, paged, keys, tmp_path, capsys):
    toml = config(tmp_path, paged, keys["tool"])
    push(out, toml, capsys)
    posts = len(paged.store.posts)
    paged.close()                                    # the platform gone (or not set up yet)

    code, text = push(out, toml, capsys, "--dry-run", "--late-penalty", "50")   # Bob was late: his changes

    assert code == 0 and "from what the kit last sent" in text and "no answer from the platform" in text
    assert "1 changed, 1 new (can't be mapped without the platform), 2 unchanged" in text
    assert "would send: " in text and "new: ghoststudent_1004" in text
    code, text = push_without_lti(out, capsys)
    assert code == 0 and "no --lti given" in text and "0 changed, 1 new" in text and "3 unchanged" in text
    assert len(paged.store.posts) == posts


def push_without_lti(out: Path, capsys):
    from autograder.cli import main
    code = main(["lms", "push", str(out), "--dry-run"])
    captured = capsys.readouterr()
    return code, captured.out + captured.err
