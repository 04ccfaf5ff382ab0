"""Can a student read a hidden case's inputs back from anything the grader writes?

The engine below prints every number it is given, in every way it can: stdout, stderr,
exception messages, SystemExit messages, a stderr line before os._exit, and fake lines
on the result pipe. It is graded in a real batch beside an honest student; then every
file of the output folder is searched for the numbers that only hidden cases hold.
Public cases may show what the code printed (their inputs are public); hidden ones never.
"""
from __future__ import annotations

import re
import shutil


from rich.console import Console

from autograder.cli.batch import run_batch_command
from autograder.cases import PUBLIC_SEED, build_cases
from autograder.config import Rubric
from autograder.paths import SOLUTIONS

RUBRIC = Rubric(hidden_seed=424242, case_timeout=2.0)

LEAKY = '''

import os as _os, sys as _sys

_original_init = Value.__init__


def _leaky_init(self, data, *args, **kwargs):
    _original_init(self, data, *args, **kwargs)
    if isinstance(data, float) and data not in (0.0, 1.0, -1.0):
        mark = "LEAK" + repr(data)
        way = int(abs(data) * 1000) % 5
        if way == 0:
            print(mark)
            raise ValueError(mark)
        if way == 1:
            _os.write(2, (mark + "\\n").encode())  # the real stderr, past the child's capture
            _os._exit(3)
        if way == 2:
            raise SystemExit(mark)
        if way == 3:
            for fd in range(3, 64):
                try:
                    _os.write(fd, ('{"case": "x", "message": "%s"}\\n' % mark).encode())
                except OSError:
                    pass
            raise RuntimeError(mark)
        print(mark, file=_sys.stderr)
        raise KeyError(mark)


Value.__init__ = _leaky_init
'''


def _numbers(params) -> set[float]:
    if isinstance(params, dict):
        return set().union(*(_numbers(v) for v in params.values())) if params else set()
    if isinstance(params, (list, tuple)):
        return set().union(*(_numbers(v) for v in params)) if params else set()
    return {float(params)} if isinstance(params, (int, float)) and not isinstance(params, bool) else set()


def test_does_no_hidden_input_reach_any_output_of_a_batch(tmp_path):
    klass = tmp_path / "class"
    shutil.copytree(SOLUTIONS / "micrograd", klass / "honest" / "micrograd")
    shutil.copytree(SOLUTIONS / "micrograd", klass / "leaky" / "micrograd")
    engine = klass / "leaky" / "micrograd" / "engine.py"
    engine.write_text(engine.read_text() + LEAKY)
    out = tmp_path / "out"
    code = run_batch_command([klass], out, 1, False, RUBRIC, console=Console(file=open(tmp_path / "log", "w")))
    assert code in (0, 1)

    public = set().union(*(_numbers(c.params) for c in build_cases(seed=PUBLIC_SEED, visibility="public")))
    hidden = set().union(*(_numbers(c.params) for c in build_cases(seed=RUBRIC.hidden_seed, visibility="hidden")))
    secret = {x for x in hidden - public if x not in (0.0, 1.0, -1.0)}
    assert len(secret) > 50
    texts = {p.relative_to(out).as_posix(): p.read_text(errors="replace")
             for p in out.rglob("*") if p.is_file() and p.suffix in (".json", ".html", ".csv", ".md")}
    assert "reports/leaky.json" in texts and "feedback/leaky.html" in texts
    assert any("LEAK" in t for t in texts.values()), "the public cases do show what the code printed"
    shown = {float(m) for text in texts.values() for m in re.findall(r"LEAK(-?[0-9][0-9.e+-]*)", text)}
    found = sorted(shown & secret)
    assert not found, f"hidden inputs readable by the student: {found[:5]}"
