"""Does `autograder lms push` put every graded student's score in the right user's row of a real LTI 1.3
platform's gradebook (lti1p3platform on 127.0.0.1, see lti_platform.py), send only what changed, and
answer each refusal with one line, losing nothing?"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from lms_class import canvas_download, graded_class, moodle_download  # noqa: E402
from lti_platform import CLIENT_ID, DEPLOYMENT_ID, ISSUER, RESOURCE_LINK, Platform  # noqa: E402

from autograder.cli import main  # noqa: E402
from autograder.lms.graded import read_graded  # noqa: E402
from autograder.lms.lti.service import public_jwk  # noqa: E402

pytestmark = pytest.mark.slow   # a real platform served on 127.0.0.1, and a class graded for it

# the course as Canvas's NRPS gives it (developerdocs.instructure.com, Names and Role): the Canvas user id
# of the download's names only in the message section, with the resource link (rlid); user_id is the LTI sub
CANVAS_ID = "https://www.instructure.com/canvas_user_id"
MEMBERS = [
    {"user_id": "a6b1-mary", "name": "Mary O'Brien", "lis_person_sourcedid": "s1", "status": "Active",
     "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
     "message": [{CANVAS_ID: 1001}]},
    {"user_id": "c3d2-bob", "name": "Bob Lee", "lis_person_sourcedid": "s2",
     "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
     "message": [{CANVAS_ID: 1002}]},
    {"user_id": "e5f3-zoe", "name": "Zoë Müller", "lis_person_sourcedid": "s3",
     "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
     "message": [{CANVAS_ID: 1003}]},
    {"user_id": "0000-teacher", "name": "Ghost Student", "lis_person_sourcedid": "t1",
     "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
     "message": [{CANVAS_ID: 9}]},
]
USERS = {1001: "a6b1-mary", 1002: "c3d2-bob", 1003: "e5f3-zoe"}   # Canvas user id -> LTI user id


def pem(key) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def new_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def keys():
    return {"tool": pem(new_key()), "platform": new_key(), "forger": pem(new_key())}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return graded_class(tmp_path_factory.mktemp("lti"), canvas_download)


@pytest.fixture
def platform(keys):
    platform_key = keys["platform"]
    public = platform_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                    serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    served = Platform(pem(platform_key), public, {"keys": [public_jwk(keys["tool"])]}, MEMBERS)
    yield served
    served.close()


@pytest.fixture
def out(graded, tmp_path):
    copy = tmp_path / "out"
    shutil.copytree(graded, copy)
    return copy


def config(tmp_path: Path, platform: Platform, key: str, **extra) -> Path:
    (tmp_path / "tool.pem").write_text(key)
    lines = [
        "[platform]", f'issuer = "{ISSUER}"', f'client_id = "{CLIENT_ID}"', f'deployment_id = "{DEPLOYMENT_ID}"',
        f'token_url = "{platform.url}/token"',
        "[tool]", 'private_key = "tool.pem"', *([f'key_id = "{extra["key_id"]}"'] if "key_id" in extra else []),
        "[course]", f'lineitems = "{platform.lineitems_url}"', f'memberships = "{platform.memberships_url}"',
        f'resource_link_id = "{RESOURCE_LINK}"',
        "[assignment]", 'tag = "backprop-kit:hw1"', 'label = "Backprop HW1"', "score_maximum = 10",
        "[students]", f'member = "message:{CANVAS_ID}"', 'kit = "lms_id"',
    ]
    path = tmp_path / "platform.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def push(out: Path, toml: Path, capsys, *flags) -> tuple[int, str]:
    code = main(["lms", "push", str(out), "--lti", str(toml), *flags])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def kept(platform: Platform) -> dict[str, dict]:
    """The platform's gradebook: user id -> the score it keeps, for the kit's one line item."""
    (item,) = platform.store.lineitems
    return platform.store.scores.get(item, {})


def expected(out: Path, penalty: float = 0.0) -> dict[str, float]:
    """user id -> the score on 10 the gradebook says, a late one less the penalty."""
    scores = {}
    for g in read_graded(out):
        if g.lms_id("canvas") in USERS:
            share = g.score / g.max_score * (1 - penalty / 100 if g.late else 1)
            scores[USERS[g.lms_id("canvas")]] = round(10 * share, 2)
    return scores


def test_does_every_score_reach_the_right_users_row(out, platform, keys, tmp_path, capsys):
    code, text = push(out, config(tmp_path, platform, keys["tool"]), capsys)
    assert code == 1  # ghoststudent_1004 is no member of the course: said, not guessed
    assert "not sent: ghoststudent_1004" in text and "no active member" in text
    (item,) = platform.store.lineitems.values()
    assert item["tag"] == "backprop-kit:hw1" and item["label"] == "Backprop HW1" and item["scoreMaximum"] == 10
    gradebook = kept(platform)
    assert {u: s["scoreGiven"] for u, s in gradebook.items()} == expected(out)
    assert gradebook["a6b1-mary"]["scoreGiven"] == 10 and gradebook["e5f3-zoe"]["scoreGiven"] == 0
    assert "mul" in gradebook["c3d2-bob"]["comment"] and "Submitted late" in gradebook["c3d2-bob"]["comment"]
    assert all(s["gradingProgress"] == "FullyGraded" and s["scoreMaximum"] == 10 for s in gradebook.values())
    assert "3 sent, 0 unchanged" in text and "late (flagged, not penalised" in text


def test_does_a_re_push_send_nothing_and_a_changed_grade_only_itself(out, platform, keys, tmp_path, capsys):
    toml = config(tmp_path, platform, keys["tool"])
    push(out, toml, capsys)
    posts = len(platform.store.posts)
    code, text = push(out, toml, capsys)
    assert len(platform.store.posts) == posts and "0 sent, 3 unchanged" in text
    code, text = push(out, toml, capsys, "--late-penalty", "50")   # Bob was late: his score changes, alone
    assert len(platform.store.posts) == posts + 1 and "1 sent, 2 unchanged" in text
    assert {u: s["scoreGiven"] for u, s in kept(platform).items()} == expected(out, 50)
    assert all(status in (200, 201) for *_, status in platform.store.posts)


def test_does_a_dry_run_show_what_it_would_send_and_send_nothing(out, platform, keys, tmp_path, capsys):
    code, text = push(out, config(tmp_path, platform, keys["tool"]), capsys, "--dry-run")
    assert "would be created" in text and text.count("would send: ") == 3 and "Points lost in: mul" in text
    assert not platform.store.lineitems and not platform.store.posts and not (out / "lti-sent.json").exists()


def test_is_a_key_the_platform_does_not_know_refused_in_one_line(out, platform, keys, tmp_path, capsys):
    """The forger signs with its own key under the tool's kid: the platform's signature check refuses it."""
    kid = public_jwk(keys["tool"])["kid"]
    code, text = push(out, config(tmp_path, platform, keys["forger"], key_id=kid), capsys)
    assert code == 1 and "refused (401)" in text and "Signature verification failed" in text
    assert "nothing was sent; the next push sends all 4 scores" in text and "Traceback" not in text
    assert not platform.store.posts and not platform.issued and not (out / "lti-sent.json").exists()


def test_is_a_stale_or_forged_client_assertion_refused_by_the_platform(platform, keys):
    """The platform itself (the library's check), asked directly: an assertion that expired, one signed by
    another key, and a bearer token the platform never signed."""
    import jwt
    kid = public_jwk(keys["tool"])["kid"]
    now = int(time.time())
    claims = {"iss": CLIENT_ID, "sub": CLIENT_ID, "aud": f"{platform.url}/token", "jti": "x"}
    form = {"grant_type": "client_credentials", "scope": "https://purl.imsglobal.org/spec/lti-ags/scope/score",
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}
    for key, iat, exp, why in ((keys["tool"], now - 7200, now - 3600, "expired"),
                               (keys["forger"], now, now + 60, "Signature verification failed")):
        assertion = jwt.encode({**claims, "iat": iat, "exp": exp}, key, algorithm="RS256", headers={"kid": kid})
        answer = requests.post(f"{platform.url}/token", data={**form, "client_assertion": assertion}, timeout=10)
        assert answer.status_code == 401 and why in answer.json()["error_description"]
    forged = jwt.encode({"iss": ISSUER, "sub": CLIENT_ID, "scopes": form["scope"], "exp": now + 60},
                        keys["forger"], algorithm="RS256")
    answer = requests.get(platform.memberships_url, headers={"Authorization": f"Bearer {forged}"}, timeout=10)
    assert answer.status_code == 401


def test_is_an_older_grading_refused_over_a_newer_one(out, platform, keys, tmp_path, capsys):
    """A copy of the class's grades made an hour earlier, pushed after the newer: 409, kept as it was."""
    toml = config(tmp_path, platform, keys["tool"])
    push(out, toml, capsys)
    before = {u: dict(s) for u, s in kept(platform).items()}
    older = tmp_path / "older"
    shutil.copytree(out, older)
    (older / "lti-sent.json").unlink()
    hour_ago = time.time() - 3600
    for report in (older / "reports").iterdir():
        os.utime(report, (hour_ago, hour_ago))
    code, text = push(older, toml, capsys, "--late-penalty", "50")
    assert code == 1 and text.count("holds a newer score (409)") == 3 and kept(platform) == before


def test_does_an_expired_token_get_renewed_and_a_revoked_one_stop_in_one_line(out, platform, keys, tmp_path, capsys):
    toml = config(tmp_path, platform, keys["tool"])
    platform.next_statuses = [401]           # the first token expired under way: a new one, and on
    code, text = push(out, toml, capsys)
    assert "3 sent" in text and len(kept(platform)) == 3
    assert len(platform.issued) == 3   # NRPS's token, its renewal after the 401, AGS's token (other scopes)
    platform.next_statuses = [401, 401]      # refused again with the new token: stop
    (out / "lti-sent.json").unlink()
    code, text = push(out, toml, capsys)
    assert code == 1 and "refused (401)" in text and "nothing was sent" in text


@pytest.mark.parametrize("status, said", [(403, "forbidden (403)"), (503, "the platform failed (503)")])
def test_does_a_refusal_half_way_lose_nothing(out, platform, keys, tmp_path, capsys, status, said):
    """The first score is accepted, the second refused: the push stops in one line, the record keeps the
    first, and the next push sends exactly the two others."""
    toml = config(tmp_path, platform, keys["tool"])
    platform.next_score_statuses = [None, status]
    code, text = push(out, toml, capsys)
    assert code == 1 and said in text and "stopped: 2 not sent" in text and "the next push sends them" in text
    assert len(kept(platform)) == 1 and len(json.loads((out / "lti-sent.json").read_text())["lineitems"]) == 1
    code, text = push(out, toml, capsys)
    assert "2 sent, 1 unchanged" in text and len(kept(platform)) == 3
    assert sum(status_ in (200, 201) for *_, status_ in platform.store.posts) == 3


@pytest.mark.parametrize("change, said", [
    (lambda t: t.replace('private_key = "tool.pem"', 'private_key = "none.pem"'), "can't read it"),
    (lambda t: t.replace("[course]", "[cours]"), "no [course] table"),
    (lambda t: t + "[[", "not a valid TOML file"),
    (lambda t: t.replace('kit = "lms_id"', 'kit = "name"'), "kit must be one of"),
    (lambda t: t.replace(f'resource_link_id = "{RESOURCE_LINK}"', ""), "only with [course] resource_link_id"),
])
def test_is_a_config_it_cannot_use_refused_in_one_line(out, platform, keys, tmp_path, capsys, change, said):
    toml = config(tmp_path, platform, keys["tool"])
    toml.write_text(change(toml.read_text()))
    code, text = push(out, toml, capsys)
    assert code == 2 and said in text and len(text.strip().splitlines()) == 1 and not platform.store.posts


def test_does_jwk_print_the_key_the_platform_registers(platform, keys, tmp_path, capsys):
    assert main(["lms", "jwk", str(config(tmp_path, platform, keys["tool"]))]) == 0
    jwk = json.loads(capsys.readouterr().out)
    assert jwk == public_jwk(keys["tool"]) and "d" not in jwk and jwk["alg"] == "RS256"


def test_does_a_moodle_class_reach_its_users_through_the_worksheet_and_their_emails(platform, keys, tmp_path,
                                                                                      tmp_path_factory, capsys):
    """Moodle's download numbers participants, which NRPS does not know: the grading worksheet (Participant N,
    Email address) is the roster, and members are found by email."""
    out = graded_class(tmp_path_factory.mktemp("lti-moodle"), moodle_download)
    platform.store.members = [
        {"user_id": "7", "email": "ada@uni.test", "roles": ["Learner"], "name": "Alan Turing"},   # names lie
        {"user_id": "8", "email": "alan@uni.test", "roles": ["Learner"], "name": "Ada Lovelace"},
        {"user_id": "9", "email": "grace@uni.test", "roles": ["Learner"], "status": "Inactive"},
    ]
    (tmp_path / "worksheet.csv").write_text(
        "\ufeffIdentifier,Full name,Email address,Status,Grade,Maximum Grade\n"
        "Participant 41,Ada Lovelace,ada@uni.test,Submitted,,100.00\n"
        "Participant 42,Alan Turing,alan@uni.test,Submitted,,100.00\n"
        "Participant 43,Grace Hopper,grace@uni.test,Submitted,,100.00\n")
    toml = config(tmp_path, platform, keys["tool"])
    toml.write_text(toml.read_text().replace(f'member = "message:{CANVAS_ID}"',
                                             'member = "email"\nroster = "worksheet.csv"'))
    code, text = push(out, toml, capsys)
    graded = {g.lms_id("moodle"): g for g in read_graded(out)}
    assert {u: s["scoreGiven"] for u, s in kept(platform).items()} == {
        "7": round(10 * graded[41].score / graded[41].max_score, 2),
        "8": round(10 * graded[42].score / graded[42].max_score, 2)}
    assert code == 1 and "no active member of the course has email grace@uni.test" in text   # inactive: not sent


def test_does_a_canvas_gradebook_export_serve_as_the_roster_without_a_resource_link(out, platform, keys, tmp_path,
                                                                                   capsys):
    """Without a resource link, Canvas's members carry no Canvas user id: its gradebook export maps it to the
    SIS id, which members carry as lis_person_sourcedid."""
    (tmp_path / "export.csv").write_text("Student,ID,SIS User ID,SIS Login ID,Section,Backprop (123)\n"
                                         "    Points Possible,,,,,10.00\n"
                                         "\"O'Brien, Mary\",1001,s1,mobrien,Sec 1,\n\"Lee, Bob\",1002,s2,blee,Sec 1,\n"
                                         "\"Müller, Zoë\",1003,s3,zmuller,Sec 2,\n")
    toml = config(tmp_path, platform, keys["tool"])
    toml.write_text(toml.read_text().replace(f'member = "message:{CANVAS_ID}"',
                                             'member = "lis_person_sourcedid"\nroster = "export.csv"')
                    .replace(f'resource_link_id = "{RESOURCE_LINK}"', ""))
    code, text = push(out, toml, capsys)
    assert {u: s["scoreGiven"] for u, s in kept(platform).items()} == expected(out)
    assert "not sent: ghoststudent_1004: 1004 is not in the roster" in text


@pytest.mark.parametrize("change, said", [
    (lambda t, p: t.replace(f'lineitems = "{p.lineitems_url}"', f'lineitems = "{p.lineitems_url}/1"'),
     "the assignment's line item (AGS): the platform's answer is not what LTI 1.3 specifies"),
    (lambda t, p: t.replace(f'lineitems = "{p.lineitems_url}"', f'lineitems = "{p.memberships_url}"'),
     "the assignment's line item (AGS): refused (401)"),
    (lambda t, p: t.replace(f"{p.url}/token", "http://127.0.0.1:9/token"), "no answer from the platform"),
])
def test_is_a_wrong_url_one_line_and_nothing_sent(out, platform, keys, tmp_path, capsys, change, said):
    """A line item's URL where the list of line items belongs, the members' URL there (the token's scopes
    are AGS's: the library refuses it), a token URL where nothing listens."""
    platform.store.lineitems[f"{platform.lineitems_url}/1"] = {"id": f"{platform.lineitems_url}/1", "tag": "other",
                                                                "label": "Quiz", "scoreMaximum": 5}
    toml = config(tmp_path, platform, keys["tool"])
    toml.write_text(change(toml.read_text(), platform))
    code, text = push(out, toml, capsys)
    assert code == 1 and said in text and "nothing was sent" in text and "Traceback" not in text
    assert not platform.store.posts and len(text.strip().splitlines()) == 2


def test_are_two_submissions_of_one_member_left_for_the_instructor(out, platform, keys, tmp_path, capsys):
    """Mary handed in twice (the batch called the second obrienmary_1001-2): which counts is not guessed."""
    import csv
    rows = list(csv.DictReader((out / "gradebook.csv").read_text(encoding="utf-8").splitlines()))
    mary = next(r for r in rows if r["student"].endswith("_1001"))
    with (out / "gradebook.csv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows([*rows, {**mary, "student": mary["student"] + "-2", "score": "0"}])
    code, text = push(out, config(tmp_path, platform, keys["tool"]), capsys)
    assert code == 1 and text.count("2 graded submissions are the same member's") == 2
    assert "a6b1-mary" not in kept(platform) and len(kept(platform)) == 2
