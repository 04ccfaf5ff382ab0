"""Does the parent's quick way through a result line read it as the plain way does?

The parent reads one line per case, so protocol.py takes short cuts on the common line: json's C
scanner without json.loads's frames, one check of the line instead of two, a CaseOutcome built
without its __init__, names cleaned once. Each must give what the plain way gives, on the kit's own
lines and on hostile ones; and nonces drawn in bulk must still be fresh and unpredictable.
"""
from __future__ import annotations

import json
import pickle

import pytest

from autograder.runner.protocol import (
    TRUNCATED, BadValue, CaseOutcome, Nonces, answer, answers, clean, decode_line, parse_case, parse_value, read_case,
)

NONCE = "ab" * 16
CASE = "add/one"


def line(**fields) -> bytes:
    base = {"case": CASE, "nonce": NONCE, "status": "ok", "obs": {"out": 1.0, "grads": [0.5, 0.5]}, "output": ""}
    return json.dumps({**base, **fields}).encode("utf-8", "surrogatepass")


def plain_decode(raw: bytes):
    try:
        value = json.loads(raw.decode("utf-8"))
    except Exception:
        return None
    return value if isinstance(value, dict) else None


def plain_outcome(raw: dict, output_cap: int = 4000) -> CaseOutcome:
    """parse_case as it was: the dataclass's own __init__, every name cleaned."""
    status, obs = raw["status"], {}
    if status == "ok" or (status == "error" and isinstance(raw.get("obs"), dict)):
        obs = {clean(k, 100): parse_value(v) for k, v in list(raw["obs"].items())[:1000]}
    return CaseOutcome(CASE, status, obs, message=clean(raw.get("message"), 1000), where=clean(raw.get("where"), 100),
                       output=clean(raw.get("output"), output_cap + len(TRUNCATED)))


LINES = [
    line(),
    line(status="error", message="ZeroDivisionError: x", where="engine.py:3", obs={"deviation": 1}),
    line(status="missing", message="NotImplementedError", obs={"out": 1.0}),
    line(obs={"k\x01\x7f": [1.0, True], "\ud800": 10 ** 400, "x" * 150: {"type": "T", "repr": "r\x00"}, "": []}),
    line(obs={f"k{i}": float(i) for i in range(1500)}),
    line(output="\x1b[31m" + "é" * 5000, message=0, where=["x"]),
    b" " + line(), line() + b" \t", "\ufeff".encode() + line(), line() + b"x", line()[:-3], b"[" + line() + b"]",
    line()[:9] + b"\xff" + line()[9:], b"[" * 100_000, b'{"a":' * 5000 + b"1" + b"}" * 5000,
    line(obs={"a": 0}).replace(b"0}", b"9" * 5000 + b"}"), b"", b"   ", b"null", b"1.0",
    line(nonce=""), line(nonce=None), line(nonce=NONCE + "0"), line(case="add/other"), line(status="bogus"),
    line(obs=[1.0]), line(status="ok", obs=None),
]


@pytest.mark.parametrize("raw", LINES, ids=range(len(LINES)))
def test_a_line_is_read_as_the_plain_way_reads_it(raw):
    """decode_line, answer and read_case against json.loads, answers and parse_case's plain build."""
    plain = plain_decode(raw)
    assert decode_line(raw) == plain
    taken = plain if plain is not None and answers(plain, CASE, NONCE) else None
    assert answer(raw, CASE, NONCE) == taken
    if taken is not None:
        outcome, expected = read_case(taken, CASE), plain_outcome(taken)
        assert outcome == expected and repr(outcome) == repr(expected)
        assert vars(outcome) == vars(expected) and list(vars(outcome)) == list(vars(expected))
        assert parse_case(taken, CASE, NONCE) == expected
        assert pickle.dumps(outcome) == pickle.dumps(expected)


def test_a_case_outcome_built_quickly_is_still_frozen():
    outcome = read_case(json.loads(line()), CASE)
    assert type(outcome) is CaseOutcome
    with pytest.raises(AttributeError):
        outcome.status = "error"  # type: ignore[misc]


def test_lists_of_floats_pass_whole_and_anything_else_is_parsed():
    assert parse_value([]) == [] and parse_value([1.0, -2.5]) == [1.0, -2.5]
    assert parse_value([1.0, 2]) == [1.0, 2.0]
    assert parse_value([1.0, True]) == [1.0, BadValue("bool", "True")]


def test_nonces_are_fresh_each_line_and_unlike_each_other():
    nonces = Nonces(3)
    drawn = [nonces.take() for _ in range(7)]  # more than counted: drawn again, never repeated
    assert len(set(drawn)) == 7
    assert all(len(n) == 32 and int(n, 16) >= 0 for n in drawn)
    assert Nonces(3).take() not in drawn  # another child's are its own
