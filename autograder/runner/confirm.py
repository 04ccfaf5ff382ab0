"""A case stopped early is a suspicion, not a verdict: it is confirmed by grading the submission again.

The endless-loop watch (endless.py) stops a case that computes far longer than the cases before it, and
that guess is cheap. But one-time work (an import, a self-check, a cache filled on first use) looks the
same until it ends, so a guess never decides a case: a submission with a case stopped early is run again,
whole, in fresh children (the same sandbox, one process tree per submission, as ever), with no early stop
and each case timed by what it does rather than by the clock: CONFIRMING (timed_by_work, endless.py). That
run is the submission's verdict: one-time work that finishes within the case_timeout in CPU seconds keeps
its marks, the cases the stop skipped are graded, and a loaded machine changes nothing.

Where the confirmation runs is the process's mode:
- IN_PLACE (the default: `autograder check`, `grade` of one submission, a dask worker): at once, in run_cases.
- DEFER (a batch's pool workers, batch/worker.py): not here. run_cases returns the guess and counts it
  (`deferred()`); the pool grades the submission again in its confirmer (batch/confirmer.py), a process
  at idle priority beside the next submissions, and reports that grading instead.
- CONFIRMING (the confirmer): every run is a confirmation.

A first pass gives each process some CPU for one-time work past a case's look (the rubric's one_time_work,
EndlessWatch), so that honest one-time work is seldom guessed and graded twice. Where the guess goes to a
confirmer with a CPU of its own (a pool with fewer workers than CPUs: `set_spare_cpu`), that time is the
worker's, spent for nothing on every endless loop, while a confirmation costs the worker nothing: there the
first pass guesses at the look (`one_time` is 0), and one-time work, honest or not, is timed by the confirmer
on the other CPU, whose verdict is the same (a guess decides nothing).
"""
from __future__ import annotations

IN_PLACE, DEFER, CONFIRMING = "in place", "defer", "confirming"
_STATE = {"mode": IN_PLACE, "deferred": 0, "spare_cpu": False}


def set_mode(mode: str) -> None:
    if mode not in (IN_PLACE, DEFER, CONFIRMING):
        raise ValueError(f"unknown confirmation mode {mode!r}")
    _STATE["mode"] = mode


def mode() -> str:
    return _STATE["mode"]


def set_spare_cpu(spare: bool) -> None:
    """Whether this process's deferred guesses go to a confirmer with a CPU of its own (batch/confirmer.py)."""
    _STATE["spare_cpu"] = bool(spare)


def one_time(seconds: float) -> float:
    """The CPU a process of this run may spend on one-time work past a case's look (EndlessWatch), of the
    rubric's `seconds`: none in DEFER mode with a confirmer on a CPU of its own, else all of them."""
    return 0.0 if _STATE["mode"] == DEFER and _STATE["spare_cpu"] else seconds


def defer() -> None:
    """A run in DEFER mode stopped a case early: its submission is to be confirmed elsewhere."""
    _STATE["deferred"] += 1


def deferred() -> int:
    """How many runs of this process left their early stops to be confirmed elsewhere (DEFER)."""
    return _STATE["deferred"]
