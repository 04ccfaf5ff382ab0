"""Does a child share no kernel keyring with the grader, another child, or a later run? (issue 28, class 1)

A grading process puts a key in its own session keyring (as a login keeps an instructor's Kerberos
tickets there: keyring_driver.py); a submission looks for it with KEYCTL_SEARCH and KEYCTL_READ in every
keyring it can name. Another submission adds keys to its user, user-session and session keyrings, and the
next submission graded by the same process, then one graded by a later run, look for them. What a seeker
finds it puts in its import error, which the report carries: a report naming the payload is a leak.
Each at the bubblewrap level (with its zygote, and with AUTOGRADER_ZYGOTE=0), at the uid level and at the
basic level (whose only filter is the one against keyrings).
"""
from __future__ import annotations

import ctypes
import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import corpus

DRIVER = Path(__file__).with_name("keyring_driver.py")
KEYCTL = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine)

FIND = '''
def _hx_keys(description):
    """The payload of every "user" key of that description this process can find and read."""
    import ctypes, os
    nr = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    found = []
    for ring in (-3, -4, -5, -1, -2):  # session, user, user-session, thread, process
        key = libc.syscall(nr, 10, ctypes.c_long(ring), b"user", description, ctypes.c_long(0))  # KEYCTL_SEARCH
        if key > 0:
            buf = ctypes.create_string_buffer(512)
            n = libc.syscall(nr, 11, ctypes.c_long(key), buf, ctypes.c_long(512))  # KEYCTL_READ
            found.append(buf.raw[:n].decode("utf-8", "replace") if n > 0 else f"key {key}, unreadable")
    return found


_hx_found = _hx_keys(b"@DESC@")
if _hx_found:
    raise ImportError("hx-found: " + "; ".join(_hx_found))
'''

ADD = '''
def _hx_add(description, payload):
    """A "user" key in every keyring this process can name that may outlive it."""
    import ctypes, os
    nr = {"x86_64": 248, "aarch64": 217}[os.uname().machine]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    for ring in (-4, -5, -3):  # user, user-session, session
        libc.syscall(nr, b"user", description, payload, ctypes.c_size_t(len(payload)), ctypes.c_long(ring))


_hx_add(b"@DESC@", b"@PAYLOAD@")
'''

CONFIGS = [
    pytest.param("bubblewrap", "1", id="bubblewrap-zygote"),
    pytest.param("bubblewrap", "0", id="bubblewrap-no-zygote"),
    pytest.param("uid", "1", id="uid"),
    pytest.param("basic", "1", id="basic"),
]


def _unavailable(level: str) -> str:
    from autograder.runner import levels

    return levels._get(level, levels.interpreter())[1]


def _submission(folder: Path, attack: str, **fill: str) -> Path:
    files = corpus.base_files("solutions")
    for key, value in fill.items():
        attack = attack.replace(f"@{key.upper()}@", value)
    files["engine.py"] += "\n" + attack
    return corpus.write_folder(folder, {name: text.encode() for name, text in files.items()})


def _grade(level: str, zygote: str, folders: list[Path], description: str, payload: str) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(corpus.REPO), "AUTOGRADER_SANDBOX": level, "AUTOGRADER_ZYGOTE": zygote}
    done = subprocess.run([sys.executable, str(DRIVER), description, payload, *map(str, folders)],
                          capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    reports = json.loads(done.stdout.strip().splitlines()[-1])
    for report in reports:
        assert report["sandbox"] == level, report.get("notes")
    return reports


def _forget_user_keys(uids) -> None:
    """Clear the user and user-session keyrings of these uids (what a breached run left in the kernel)."""
    code = ("import ctypes, os, sys; libc = ctypes.CDLL(None); libc.syscall.restype = ctypes.c_long\n"
            "for u in map(int, sys.argv[1:]):\n"
            "    if os.fork() == 0:\n"
            "        os.setresgid(u, u, u); os.setresuid(u, u, u)\n"
            f"        [libc.syscall({KEYCTL}, 7, ctypes.c_long(r)) for r in (-4, -5)]\n"  # KEYCTL_CLEAR
            "        os._exit(0)\n"
            "    os.wait()\n")
    subprocess.run([sys.executable, "-c", code, *map(str, uids)], check=False, timeout=60)


@pytest.mark.skipif(KEYCTL is None, reason="keyctl's number is known for x86_64 and aarch64 only")
@pytest.mark.parametrize("level, zygote", CONFIGS)
def test_a_submission_finds_no_key_of_the_graders_session(tmp_path, level, zygote):
    if _unavailable(level):
        pytest.skip(f"{level}: {_unavailable(level)}")
    run = secrets.token_hex(4)
    description, payload = f"hx-grader-{run}", f"hx-ticket-{run}"
    seeker = _submission(tmp_path / "seeker", FIND, desc=description)
    (report,) = _grade(level, zygote, [seeker], description, payload)
    leaked = payload in json.dumps(report)
    assert not leaked, f"the child read the grader's key: {report['notes']}"
    assert report["score"] == report["max_score"], (report["error"], report["notes"])


@pytest.mark.skipif(KEYCTL is None, reason="keyctl's number is known for x86_64 and aarch64 only")
@pytest.mark.parametrize("level, zygote", CONFIGS)
def test_a_key_one_submission_adds_reaches_no_later_submission(tmp_path, level, zygote):
    if _unavailable(level):
        pytest.skip(f"{level}: {_unavailable(level)}")
    run = secrets.token_hex(4)
    description, payload = f"hx-left-{run}", f"hx-note-{run}"
    giver = _submission(tmp_path / "giver", ADD, desc=description, payload=payload)
    seeker = _submission(tmp_path / "seeker", FIND, desc=description)
    try:
        same = _grade(level, zygote, [giver, seeker], f"hx-grader-{run}", "unused")
        later = _grade(level, zygote, [seeker], f"hx-grader-{run}", "unused")
    finally:
        if level == "uid" and os.geteuid() == 0:
            from autograder.runner.levels.uid import uids

            _forget_user_keys(range(uids.FIRST, uids.FIRST + 8))
    assert same[0]["score"] == same[0]["max_score"], (same[0]["error"], same[0]["notes"])
    for when, report in (("the next submission", same[1]), ("a later run", later[0])):
        leaked = payload in json.dumps(report)
        assert not leaked, f"{when} read a key a submission left: {report['notes']}"
        assert report["score"] == report["max_score"], (when, report["error"], report["notes"])
