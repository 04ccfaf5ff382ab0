"""The child's side of the conversation (autograder/runner/protocol.py), spoken to by hand.

A real child (`python -I -S autograder/child/main.py`) on plain pipes, no sandbox:
the header brings the import line, each case line one result echoing its nonce,
nothing is sent unasked, and the job pipe's end (or garbage on it) ends the child.
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.runner.protocol import JOB_PIPE_LOST
from autograder.runner.sandbox import CHILD_MAIN

KIT = Path(__file__).resolve().parents[2]
FAKE = KIT / "tests" / "runner" / "fake_programs"
ADD = {"id": "add/one", "program": "basic.add", "params": {"a": 2.0, "b": -3.0, "upstream": 0.5}}


class Talk:
    """One child on two pipes: write job lines, read result lines with a deadline."""

    def __init__(self, root: Path = KIT / "solutions"):
        job_r, self.job_w = os.pipe()
        self.res_r, res_w = os.pipe()
        self.proc = subprocess.Popen(
            [os.path.realpath(sys.executable), "-I", "-S", str(CHILD_MAIN), "--job-fd", str(job_r),
             "--result-fd", str(res_w), "--programs", str(FAKE)],
            pass_fds=(job_r, res_w), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(job_r)
        os.close(res_w)
        self.root, self.buffer = root, b""

    def send(self, message: dict | bytes) -> None:
        os.write(self.job_w, message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n")

    def header(self, cases=(ADD,), nonce="h" * 32) -> None:
        self.send({"student_root": str(self.root), "nonce": nonce, "forbidden": ["torch"],
                   "cases": [{"id": c["id"], "program": c["program"]} for c in cases]})

    def line(self, timeout: float = 5.0) -> dict | None:
        """The next non-empty result line, or None when none comes in time or the pipe ended."""
        end = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.res_r, selectors.EVENT_READ)
            while True:
                lines = [x for x in self.buffer.split(b"\n")[:-1] if x.strip()]
                if lines:
                    first = lines[0]
                    self.buffer = self.buffer[self.buffer.index(first) + len(first) + 1:]
                    return json.loads(first)
                if not sel.select(max(0.0, end - time.monotonic())):
                    return None
                chunk = os.read(self.res_r, 1 << 16)
                if not chunk:
                    return None
                self.buffer += chunk

    def end(self) -> None:
        if self.job_w is not None:
            os.close(self.job_w)
            self.job_w = None

    def close(self) -> tuple[int, bytes]:
        """Wait for the child to end (killed after 5 s); its exit status and stderr. Again is harmless."""
        if self.res_r is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.end()
            os.close(self.res_r)
            self.res_r = None
            self.proc.stdout.close()
            self.stderr = self.proc.stderr.read()
            self.proc.stderr.close()
        return self.proc.returncode, self.stderr


@pytest.fixture
def talk():
    child = Talk()
    yield child
    if child.proc.poll() is None:
        child.proc.kill()
    child.close()


def test_each_answer_echoes_the_nonce_of_what_it_answers_and_nothing_comes_unasked(talk):
    talk.header(cases=[ADD, {**ADD, "id": "add/two"}], nonce="a" * 32)
    imports = talk.line()
    assert imports == {"import": {"engine": None, "nn": None, "train": None}, "missing_files": [],
                       "forbidden": None, "cells": [], "cells_failed": 0, "output": "", "adapted": [],
                       "deviations": [], "syntax": {}, "places": {"add": "engine.py:33"}, "nonce": "a" * 32}
    assert talk.line(timeout=0.3) is None  # no case runs before it is sent
    for case_id, nonce in (("add/one", "1" * 32), ("add/two", "2" * 32)):
        talk.send({"case": {**ADD, "id": case_id}, "nonce": nonce})
        result = talk.line()
        assert result["case"] == case_id and result["nonce"] == nonce
        assert result["status"] == "ok" and result["obs"] == {"out": -1.0, "grads": [0.5, 0.5]}
        assert talk.line(timeout=0.2) is None
    talk.end()
    assert talk.close() == (0, b"")


def test_the_end_of_the_job_pipe_before_any_case_ends_the_child_cleanly(talk):
    talk.header(cases=[])
    assert talk.line()["nonce"] == "h" * 32
    talk.end()
    assert talk.close() == (0, b"")


def test_the_end_of_the_job_pipe_before_the_header_ends_the_child_cleanly(talk):
    talk.end()
    assert talk.line() is None  # not a word
    assert talk.close() == (0, b"")


@pytest.mark.parametrize("garbage", [b"not json\n", b"[1, 2]\n", b'{"case": "add/one", "nonce": 5}\n'])
def test_a_job_line_the_parent_never_writes_ends_the_child(talk, garbage):
    talk.header()
    assert "import" in talk.line()
    talk.send(garbage)
    assert talk.close() == (JOB_PIPE_LOST, b"")
