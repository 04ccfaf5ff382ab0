"""`json.dumps(value, indent=2, ensure_ascii=False)`, the same text, in a fraction of the time.

Python's json module encodes in C only without `indent`; with it every value goes through a chain of
generators in Python (~3 ms for one report, the larger part of writing reports/<id>.json). This walks
the value once with plain appends and encodes each string with json's own C function, so the text is
json.dumps's to the byte (tests/report/test_json_indent.py compares them on every kind of report).
What the standard encoder would refuse (a key or value of another type) is left to it.
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C one when _json is there, as json.dumps uses

_INF = float("inf")


class _Unusual(Exception):
    """A value this encoder leaves to json.dumps."""


def dumps_indented(value, indent: int = 2, *, depth: int = 0) -> str:
    """json.dumps(value, indent=indent, ensure_ascii=False), byte for byte; depth: as the value is written
    that many levels down in a document (its inner lines indented so)."""
    out: list[str] = []
    try:
        _write(value, out, "\n" + " " * (indent * depth), " " * indent)
    except (_Unusual, RecursionError):  # json's newlines are all structural: a string's are escaped
        return json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", "\n" + " " * (indent * depth))
    return "".join(out)


class Raw:
    """JSON text already written for its place in a document (its inner lines indented for it): written as it
    is where a value would be (report/json_text.py: a case's text, made once for the class)."""
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _float(x: float) -> str:
    if x != x:
        return "NaN"
    if x == _INF:
        return "Infinity"
    if x == -_INF:
        return "-Infinity"
    return float.__repr__(x)


def _key(k) -> str:
    if isinstance(k, str):
        return encode_basestring(k)
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return f'"{int.__repr__(k)}"'
    if isinstance(k, float):
        return f'"{_float(k)}"'
    raise _Unusual


def _write(o, out: list[str], newline: str, step: str) -> None:  # noqa: C901 - json's order of types
    if isinstance(o, str):
        out.append(encode_basestring(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif isinstance(o, int):
        out.append(int.__repr__(o))
    elif isinstance(o, float):
        out.append(_float(o))
    elif isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        inner = newline + step
        sep = "[" + inner
        for item in o:
            out.append(sep)
            _write(item, out, inner, step)
            sep = "," + inner
        out.append(newline + "]")
    elif isinstance(o, dict):
        if not o:
            out.append("{}")
            return
        inner = newline + step
        sep = "{" + inner
        for k, item in o.items():
            out.append(sep)
            out.append(_key(k))
            out.append(": ")
            _write(item, out, inner, step)
            sep = "," + inner
        out.append(newline + "}")
    elif type(o) is Raw:
        out.append(o.text)
    else:
        raise _Unusual
