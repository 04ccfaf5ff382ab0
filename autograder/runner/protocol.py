"""The conversation with the child, as the parent speaks and parses it.

A request/response protocol, one JSON line per message. On the job fd (parent -> child,
kept open), first the job's header, then one line per case, each sent only once the
previous case's result has been accepted, each with a fresh random nonce:

    {"student_root": "...", "nonce": "<hex>", "cases": [{"id", "program"}], "forbidden": ["torch", ...],
     "allowed": ["numpy"], "site": null | "<the folder of the allowed packages, as the child sees it>",
     "output_cap": 4000, "max_result_line": 1000000, "import_seconds": 5.0,
     "files": {"engine": "micrograd/engine.py"}}
    {"case": {"id", "program", "params"}, "nonce": "<hex>"}

and the end of the pipe when there are no more cases. On its own result fd the child
answers each with one line echoing that line's nonce: first about importing the
student's modules,

    {"import": {"engine": null | "engine.py:3: SyntaxError: invalid syntax", "nn": ..., "train": ...},
     "missing_files": ["nn"], "forbidden": null | "engine.py:1: ImportError: torch is not allowed ...",
     "cells": ["cell 7: hw.ipynb:131: AssertionError: ..."], "cells_failed": 1, "output": "<prints>",
     "syntax": {"engine": ["<the line>", 38]}, "places": {"mul": "engine.py:47"}, "nonce": "<the header's>"}

(null: the module imported, or its file is missing, which missing_files says; cells: a notebook's
cells that raised, the cells after each having run on (child/cells.py: the first 20), cells_failed how many; "adapted" and
"deviations": lists of lines, how the kit fitted itself to the engine and where the engine is off the
exercise API (child/adapt.py); syntax: the line and caret column of each module's SyntaxError; places: where
each task's code is, off the compiled code (child/places.py);
"__init__" appears too when the package's __init__.py failed; forbidden: the error of the
first module that did not import because it imports a forbidden library), then per case:

    {"case": "<case id>", "nonce": "<hex>", "status": "ok", "obs": {<name>: <value>}, "output": "<prints>"}
    {"case": "<case id>", "nonce": "<hex>", "status": "missing", "message": "<the NotImplementedError's text>"}
    {"case": "<case id>", "nonce": "<hex>", "status": "error", "message": "<Type: text>", "where": "engine.py:34"}

(an "ok" or "error" line run on an engine off the exercise API carries the observation "deviation": 1.)

The parent accepts only the awaited line with the awaited nonce: a student's code can
read the nonce of the case it runs in (its own results anyway), but no line written
ahead, during one case, can pass for a later case's, whose nonce does not exist yet.

An observation <value> is a number, a list of numbers, or, when the student's
code produced something else, {"type": "<type name>", "repr": "<short repr>"}.
The parent trusts none of it: every line is size-capped and checked here, and
any text is cut, its control characters and lone surrogates replaced.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from itertools import islice
from typing import Union

ObsValue = Union[float, list, "BadValue"]


@dataclass(frozen=True)
class BadValue:
    """A value that is not a real number: what the child said it was."""
    type: str
    repr: str

    def __str__(self) -> str:
        return f"{self.repr} (a {self.type}, not a number)"


@dataclass(frozen=True)
class CaseOutcome:
    """One case as run in the child (or not run): observations or a reason."""
    case: str
    status: str                                   # ok | missing | error | timeout
    obs: dict[str, ObsValue] = field(default_factory=dict)
    message: str = ""
    where: str = ""
    output: str = ""


_new = object.__new__  # read_case builds a CaseOutcome without its __init__


@dataclass(frozen=True)
class ImportOutcome:
    """Per student module: None when it imported, else why it did not."""
    errors: dict[str, str]                        # module -> "engine.py:3: SyntaxError: ..."
    missing_files: tuple[str, ...] = ()
    fatal: str = ""                               # the child never reported: it hung or died importing
    forbidden: str = ""                           # a module did not import: it imports torch (or the like)
    output: str = ""                              # what the student's code printed while it was imported
    cell_errors: tuple[str, ...] = ()             # a notebook's cells that raised: "cell 7: hw.ipynb:131: ..."
    cells_failed: int = 0                         # how many did (cell_errors holds the first ones)
    adapted: tuple[str, ...] = ()                 # how the kit fitted itself to the engine (child/adapt.py)
    deviations: tuple[str, ...] = ()              # where the engine deviates from the exercise API, one line each
    places: tuple[tuple[str, str], ...] = ()      # (task, "engine.py:47"): where its code is (child/places.py)
    syntax: tuple[tuple[str, str, int], ...] = ()  # (module, its line, the caret's column) of a SyntaxError


MAX_REPR = 200


_FLOAT = {float}
MAX_LIST = 100_000  # numbers kept of one observation


def parse_value(raw) -> ObsValue:
    """A number, a list of numbers, or a BadValue; never raises on hostile input."""
    kind = type(raw)
    if kind is float:  # the common case first: a JSON number with a point
        return raw
    if kind is list and set(map(type, raw)) <= _FLOAT:  # only floats (or none): the types in C, not a generator
        return raw if len(raw) <= MAX_LIST else raw[:MAX_LIST]  # the decoded line's own list: no copy
    if isinstance(raw, bool):
        return BadValue("bool", repr(raw))
    if isinstance(raw, (int, float)):
        try:
            return float(raw)  # may be nan/inf: scoring refuses those
        except OverflowError:
            return BadValue("int", "an integer too large for a float")
    if isinstance(raw, list):
        return [parse_value(v) for v in raw[:MAX_LIST]]
    if isinstance(raw, dict) and set(raw) <= {"type", "repr"}:
        return BadValue(clean(raw.get("type", "?"), 80), clean(raw.get("repr", ""), MAX_REPR))
    return BadValue(type(raw).__name__, repr(raw)[:MAX_REPR])


STATUSES = ("ok", "missing", "error")
RESULT_PIPE_LOST = 86  # the child's exit status when it can't write its result fd any more
JOB_PIPE_LOST = 87     # ... when its job fd is closed, replaced or holds lines the parent never wrote
MAX_MESSAGE = 1000
MAX_CELL_ERRORS = 20  # a notebook's cells that raised (the child sends the first 20; the report lists 3)
TRUNCATED = "...[truncated]"  # what the child's CappedText adds to prints it cut
MAX_OBS = 1000
MAX_NOTES = 10  # lines about fitting the kit to the engine (adapted, deviations)
_CONTROL = {c: "?" for c in (*range(32), 127) if c not in (9, 10)} | {13: None}


NONCE_BYTES = 16


class Nonces:
    """One child's nonces (the header's, then a case's each), drawn by one os.urandom, not one call a
    case. Still a fresh random nonce for every line: its bytes are read only when its line is sent, they
    live in the grading process's memory alone, and no nonce says anything of another."""

    def __init__(self, count: int):
        self.count = max(1, count)
        self._hex, self._at = "", 0

    def take(self) -> str:
        if self._at >= len(self._hex):  # the first, or more lines than counted: draw again
            self._hex, self._at = os.urandom(NONCE_BYTES * self.count).hex(), 0
        at = self._at
        self._at = at + 2 * NONCE_BYTES
        return self._hex[at:at + 2 * NONCE_BYTES]


_scan = json.JSONDecoder().scan_once  # json.loads's own C scanner, without its three Python frames


def decode_line(line: bytes) -> dict | None:
    """One result line as a JSON object, or None for anything else; never raises. What json.loads
    takes: a line that is one value and nothing else goes through the C scanner alone; any other
    (white space around the value, a BOM, garbage after it) through json.loads."""
    try:
        text = line.decode("utf-8")
        try:
            raw, end = _scan(text, 0)
        except StopIteration:  # no value at the line's start: json.loads says what it is
            end = -1
        if end != len(text):
            raw = json.loads(text)
    except Exception:  # bad UTF-8, bad JSON, nesting too deep, digits too many
        return None
    return raw if isinstance(raw, dict) else None


def parse_import(raw: dict, nonce: str, *, output_cap: int = 4000) -> ImportOutcome | None:
    """The import line echoing `nonce`, or None when `raw` is not that."""
    imports = raw.get("import")
    if not isinstance(imports, dict) or not _echoes(raw, nonce):
        return None
    errors = {}
    for module, error in list(imports.items())[:20]:
        if error:
            errors[clean(module, 40)] = clean(error, MAX_MESSAGE)
    missing = raw.get("missing_files")
    missing = tuple(clean(m, 40) for m in missing[:20]) if isinstance(missing, list) else ()
    cells = raw.get("cells")
    cells = tuple(clean(c, MAX_MESSAGE) for c in cells[:MAX_CELL_ERRORS] if isinstance(c, str)) \
        if isinstance(cells, list) else ()
    count = raw.get("cells_failed")
    if not (isinstance(count, int) and not isinstance(count, bool) and len(cells) <= count <= 10**6):
        count = len(cells)
    return ImportOutcome(errors, missing, forbidden=clean(raw.get("forbidden"), MAX_MESSAGE),
                         output=clean(raw.get("output"), output_cap + len(TRUNCATED)), cell_errors=cells,
                         cells_failed=count, adapted=_lines(raw.get("adapted")), deviations=_lines(raw.get("deviations")),
                         places=_places(raw.get("places")), syntax=_syntax(raw.get("syntax")))


def _places(raw) -> tuple[tuple[str, str], ...]:
    """(task, "file:line") pairs, each a short one-line text ending in a line number; anything else is none."""
    if not isinstance(raw, dict):
        return ()
    found = [(clean(task, 40), clean(where, 200)) for task, where in list(raw.items())[:40]
             if isinstance(task, str) and isinstance(where, str)]
    return tuple((task, where) for task, where in found if where.rpartition(":")[2].isdigit())


def _syntax(raw) -> tuple[tuple[str, str, int], ...]:
    """(module, line, column) of each SyntaxError the child read; anything else is none."""
    if not isinstance(raw, dict):
        return ()
    return tuple((clean(module, 40), clean(pair[0], 200), pair[1]) for module, pair in list(raw.items())[:20]
                 if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                 and type(pair[1]) is int and 0 <= pair[1] <= 10_000)


def _lines(raw) -> tuple[str, ...]:
    """A short list of one-line texts, cleaned; anything else is none."""
    return tuple(clean(x, MAX_MESSAGE) for x in raw[:MAX_NOTES] if isinstance(x, str)) if isinstance(raw, list) else ()


def answers(raw: dict, case_id: str, nonce: str) -> bool:
    """Is `raw` the result line of case `case_id` echoing `nonce`? (Not another case's, not one
    written ahead, not garbage.) Quick: the parent sends the next case as soon as it is."""
    status = raw.get("status")
    return (raw.get("case") == case_id and status in STATUSES and bool(nonce) and raw.get("nonce") == nonce
            and (status != "ok" or isinstance(raw.get("obs"), dict)))  # only a str equals a str: _echoes


def answer(line: bytes, case_id: str, nonce: str) -> dict | None:
    """`line` decoded, when it is the result line of case `case_id` echoing `nonce` (answers); else
    None. Never raises on a hostile line (the parent's awaiting loop catches what might)."""
    raw = decode_line(line)
    return raw if raw is not None and answers(raw, case_id, nonce) else None


def parse_case(raw: dict, case_id: str, nonce: str, *, output_cap: int = 4000) -> CaseOutcome | None:
    """The result line of case `case_id` echoing `nonce` as a CaseOutcome, or None when `raw`
    is not that (see answers)."""
    if not answers(raw, case_id, nonce):
        return None
    return read_case(raw, case_id, output_cap=output_cap)


def read_case(raw: dict, case_id: str, *, output_cap: int = 4000) -> CaseOutcome:
    """The CaseOutcome of a line `answers` has accepted (not checked again: once a line is enough)."""
    status, obs = raw["status"], raw.get("obs")
    if status == "ok" or (status == "error" and isinstance(obs, dict)):  # an error's: "deviation" only
        obs = _observations(obs)
    else:
        obs = {}
    get = raw.get
    # CaseOutcome(case_id, status, obs, message=..., where=..., output=...) at half the cost: a frozen
    # dataclass's __init__ sets each field through object.__setattr__. The same object: its fields are
    # its __dict__, as __init__ leaves them.
    outcome = _new(CaseOutcome)
    outcome.__dict__.update(case=case_id, status=status, obs=obs, message=clean(get("message"), MAX_MESSAGE),
                            where=clean(get("where"), 100), output=clean(get("output"), output_cap + len(TRUNCATED)))
    return outcome


_NAMES: dict[str, str] = {}  # observation names as cleaned: the same few dozen on every line
MAX_NAMES = 1000             # short ones only, so the memo stays small whatever the child sends


def _observations(raw: dict) -> dict[str, ObsValue]:
    """The first MAX_OBS observations, names cleaned, values parsed (a float is one already)."""
    items = raw.items() if len(raw) <= MAX_OBS else islice(raw.items(), MAX_OBS)
    names = _NAMES
    return {names.get(k) or _name(k): v if v.__class__ is float else parse_value(v) for k, v in items}


def _name(key: str) -> str:
    name = clean(key, 100)
    if len(key) <= 100 and len(_NAMES) < MAX_NAMES:
        _NAMES[key] = name
    return name


def _echoes(raw: dict, nonce: str) -> bool:
    echoed = raw.get("nonce")
    return bool(nonce) and isinstance(echoed, str) and echoed == nonce


def clean(raw, cap: int) -> str:
    """Text from the child, safe to print: at most `cap` characters, no control characters."""
    if raw is None:
        return ""
    text = raw if isinstance(raw, str) else str(raw)
    if text.isascii() and text.isprintable():  # the common case: nothing to replace
        return text[:cap]
    text = text[:cap].encode("utf-8", "replace").decode("utf-8")
    return text.translate(_CONTROL)
