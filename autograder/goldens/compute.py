"""Run every case program on the reference, and cross-check it against torch.

A disagreement between the reference and torch is a bug in the kit: it raises
KitError, loudly, instead of grading anyone against a wrong number.
"""
from __future__ import annotations

import importlib
import math
from pathlib import Path

from autograder.cases.model import Case
from autograder.errors import KitError
from autograder.child.programs import ABOUT, DIAGNOSTIC  # observations no golden holds

PROGRAMS = "autograder.child.programs"
_MISTAKES_DIR = Path(__file__).resolve().parents[2] / "reference" / "mistakes"
CROSS_REL, CROSS_ABS = 1e-9, 1e-12
# a golden's entry holding what each classic mistake would observe (reference/mistakes): never
# compared, never scored; the diagnosis reads it. A model that raised is {RAISES: 1.0, "raises.TypeError": 1.0}.
MISTAKES = "mistakes"
RAISES = "raises"


__all__ = ["KitError", "MISTAKES", "RAISES", "compute_goldens"]


def program(name: str):
    module, _, function = name.rpartition(".")
    return getattr(importlib.import_module(f"{PROGRAMS}.{module}"), function)


def compute_goldens(cases: list[Case], *, torch_check: bool = True) -> dict[str, dict]:
    """case id -> observations, from the reference; checked against torch when it is installed."""
    try:
        from autograder.engines import reference_api
        from reference.mistakes import CORRECT, MODELS
        ref = reference_api()
    except ImportError:
        raise KitError(
            "the expected results for these cases are not here and the reference engine is not "
            "installed to compute them: ask your instructor for a fresh handout"
        ) from None
    torch = _torch_api() if torch_check else None
    goldens = {}
    for case in cases:
        golden = _plain(program(case.program)(_bound(ref, case), case.params), case.id)
        if torch is not None:
            theirs = _plain(program(case.program)(_bound(torch, case), case.params), case.id)
            _agree(case, golden, theirs)
        golden[MISTAKES] = _predictions(case, [CORRECT, *(m for m in MODELS if m.task == case.task)])
        goldens[case.id] = golden
    return goldens


def _bound(api, case: Case, *, cache: bool = True):
    """The engine a case runs on: a variant's case (its params hold the operation's "constant") on the
    engine with that constant bound, as the student's engine.py has it written in."""
    if "constant" not in case.params:
        return api
    from autograder.engines import with_constant
    return with_constant(api, case.params["op"], case.params["constant"], cache=cache)


def _predictions(case: Case, models) -> dict[str, dict]:
    """What each model observes on the case: its observations (the DIAGNOSTIC ones kept), or, when it
    raised, {RAISES: 1.0, "raises.<its exception's type>": 1.0, "raises.at.engine" or "raises.at.case": 1.0}:
    what kind of error, and where (inside the mistaken engine, or in the case's own code, as `3 + a` fails
    where no __radd__ is found)."""
    run = program(case.program)
    out = {}
    for model in models:
        try:
            out[model.key] = _plain(run(_bound(model.api(), case, cache=False), case.params), case.id, keep=DIAGNOSTIC)
        except Exception as exc:  # a mistaken engine may well raise: that too is a prediction, of its kind
            out[model.key] = {RAISES: 1.0, f"{RAISES}.{type(exc).__name__}": 1.0, f"{RAISES}.at.{_where(exc)}": 1.0}
    return out


def _where(exc: BaseException) -> str:
    """"engine" when the error went through the mistaken engine's code (reference/mistakes/), else "case"."""
    tb = exc.__traceback__
    while tb is not None:
        if _MISTAKES_DIR in Path(tb.tb_frame.f_code.co_filename).resolve().parents:
            return "engine"
        tb = tb.tb_next
    return "case"


def _torch_api():
    try:
        from autograder.engines import torch_api
        return torch_api()
    except ImportError:
        return None


def _plain(obs: dict, case_id: str, keep: frozenset = frozenset()) -> dict:
    """The reference's observations as plain floats (and lists of them)."""
    def number(v, name):
        if isinstance(v, (list, tuple)):
            return [number(x, name) for x in v]
        if hasattr(v, "data") and not isinstance(v, (int, float)):
            v = v.data
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise KitError(f"case {case_id}: the reference observed {v!r} for {name}, not a finite number")
        return float(v)
    return {name: number(v, name) for name, v in obs.items() if name not in ABOUT or name in keep}


def _agree(case: Case, ours: dict, theirs: dict) -> None:
    def same(a, b):
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return math.isclose(a, b, rel_tol=CROSS_REL, abs_tol=CROSS_ABS)
    for name in ours:
        if name not in theirs or not same(ours[name], theirs[name]):
            raise KitError(
                f"case {case.id}: the reference and torch disagree on {name}: "
                f"reference {ours[name]!r}, torch {theirs.get(name)!r}. This is a bug in the kit."
            )
