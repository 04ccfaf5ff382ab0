"""What the child sends: observations as plain JSON, and the prints a case made.

Standard library only: this runs in the sandboxed child. An observation is a
number, a list of them, or {"type", "repr"} for anything else; it never carries a
student's object out, and a student's __repr__ that raises or lies can't break it.

The lines themselves are written by `dumps` and the parent's read by `loads`: JSON
through the C accelerator `_json`, not the `json` package, whose import (re, enum,
functools, collections) would take about as long as the rest of the child's start.
"""
import io
import sys

try:
    from _json import encode_basestring_ascii as _quote, make_encoder as _make_encoder, make_scanner as _make_scanner
except ImportError:  # pragma: no cover - a Python without the accelerator: the json package, slower to import
    import json as _json_package

    _quote = _make_encoder = _make_scanner = None

MAX_DEPTH = 20
MAX_ITEMS = 100_000
MAX_REPR = 200


def to_json(value, depth=0):
    """value as JSON-able data: a float, a list, or {"type": ..., "repr": ...}."""
    if type(value) is float:  # the usual observation, as float.__float__ below gives it
        return value
    if isinstance(value, bool):
        return bad(value)
    if isinstance(value, float):
        return float.__float__(value)  # a float subclass's own __float__ is not asked
    if isinstance(value, int):
        try:
            return int.__float__(value)
        except OverflowError:
            return {"type": type_name(value), "repr": "an integer too large for a float"}
    number = numpy_number(value)
    if number is not None:
        return to_json(number, depth)
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH:
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        out = []
        for item in items:
            if len(out) == MAX_ITEMS:
                return {"type": type_name(value), "repr": f"a {type_name(value)} of more than {MAX_ITEMS} items"}
            out.append(item if type(item) is float else to_json(item, depth + 1))
        return out
    return bad(value)


def numpy_number(value):
    """A numpy scalar (np.float64, np.float32, np.int64...) or 0-d array as a Python int or
    float, else None. numpy's own types only (not a student's subclass), asked through
    numpy's own methods; the child never imports numpy for this: only a student's code does."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    try:
        kind = type(value)
        if kind is numpy.ndarray and numpy.ndarray.__getattribute__(value, "ndim") == 0:
            value = numpy.ndarray.item(value)
        elif isinstance(value, numpy.generic) and getattr(numpy, kind.__name__, None) is kind:
            value = numpy.generic.item(value)
        else:
            return None
    except Exception:  # a numpy that is not the real one
        return None
    return value if type(value) in (int, float) else None


def bad(value):
    return {"type": type_name(value), "repr": safe_repr(value)}


def type_name(value):
    try:
        name = type(value).__name__
        return name[:80] if isinstance(name, str) else "?"
    except BaseException:  # noqa: B036 - a student's metaclass
        return "?"


def safe_repr(value):
    """repr(value), at most MAX_REPR characters; never raises."""
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("__repr__ returned a non-string")
    except BaseException as exc:  # noqa: B036 - a student's __repr__
        return f"<{type_name(value)} object; its __repr__ raised {type_name(exc)}>"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


class CappedText(io.TextIOBase):
    """Stands in for sys.stdout / sys.stderr during a case: keeps the first `cap` characters."""

    def __init__(self, cap):  # no IOBase.__init__ to call: object's
        self.cap = cap
        self.parts = []
        self.size = 0
        self.truncated = False

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type_name(text)}")
        room = self.cap - self.size
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.size += len(piece)
        if len(text) > max(room, 0):
            self.truncated = True
        return len(text)

    def getvalue(self):
        return "".join(self.parts) + ("...[truncated]" if self.truncated else "")


# -- JSON ------------------------------------------------------------------------------------

_SPECIAL_FLOATS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def dumps(value):
    """value as json.dumps(value) writes it (ASCII, NaN and infinities allowed), for None, bool,
    int, float, str, list, tuple and dict with str keys, subclasses too (their own methods are
    not asked); TypeError for anything else."""
    if _quote is None:  # pragma: no cover
        return _json_package.dumps(value)
    parts = []
    _encode(value, parts.append)
    return "".join(parts)


def dumps_own(value):
    """dumps(value) for a value whose lists and dicts the kit made itself (to_json's, run_case's lines):
    _json's C encoder, a few microseconds a line. Numbers and strings of a subclass are written without
    asking their methods, but a list's or dict's subclass would be iterated its own way: not for the
    student's objects (dumps is)."""
    if _make_encoder is None:  # pragma: no cover
        return _json_package.dumps(value)
    return "".join(_ENCODER(value, 0))


def _unserializable(value):
    raise TypeError(f"Object of type {type_name(value)} is not JSON serializable")


# markers None: no check for cycles (the kit's lines have none); separators as json.dumps's
_ENCODER = None if _make_encoder is None else \
    _make_encoder(None, _unserializable, _quote, None, ": ", ", ", False, False, True)


def _encode(value, out):
    kind = type(value)  # not isinstance: a student's __class__ can lie to it
    if issubclass(kind, str):
        out(_quote(value))
    elif value is None:
        out("null")
    elif kind is bool:
        out("true" if value else "false")
    elif issubclass(kind, int):
        out(int.__repr__(value))
    elif issubclass(kind, float):
        text = float.__repr__(value)
        out(_SPECIAL_FLOATS.get(text, text))
    elif issubclass(kind, (list, tuple)):
        out("[")
        for i, item in enumerate(list.__iter__(value) if issubclass(kind, list) else tuple.__iter__(value)):
            if i:
                out(", ")
            _encode(item, out)
        out("]")
    elif issubclass(kind, dict):
        out("{")
        for i, (key, item) in enumerate(dict.items(value)):
            if not issubclass(type(key), str):
                raise TypeError(f"keys must be str, not {type_name(key)}")
            out(", " + _quote(key) + ": " if i else _quote(key) + ": ")
            _encode(item, out)
        out("}")
    else:
        raise TypeError(f"Object of type {type_name(value)} is not JSON serializable")


class _Decoding:
    """What _json's scanner reads off a json.JSONDecoder: the defaults of json.loads."""
    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__


_scan = None if _make_scanner is None else _make_scanner(_Decoding())
_SPACE = " \t\n\r"


def loads(data):
    """One JSON document (bytes or str), as json.loads reads it; ValueError when it is not one."""
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    if _scan is None:  # pragma: no cover
        return _json_package.loads(text)
    start = 0 if text[:1] == "{" else len(text) - len(text.lstrip(_SPACE))  # the parent's lines: no copy
    try:
        value, end = _scan(text, start)
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(text) and text[end:].strip(_SPACE):
        raise ValueError("extra data after the JSON value")
    return value
