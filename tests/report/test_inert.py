"""Does text from a submission reach a terminal, a page, a CSV or Gradescope's results with nothing in it that
acts there (terminal escapes, C1 controls, bidi overrides, lone surrogates), and stay legible?"""
from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from autograder.report.gradescope_json import results_json
from autograder.report.html_report import render_feedback
from autograder.report.inert import ACTING, inert, inert_json
from autograder.report.json_report import render_json
from autograder.report.text import print_report
from report_fakes import case, report, task

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"         # writes the terminal's clipboard
CLEAR = "\x1b[2J\x1b[H"                       # clears the screen
C1 = "\x9b31m\x9d0;title\x9c"                 # the 8-bit CSI and OSC
BIDI = "\u202egnp.exe\u202c \u2066x\u2069"     # a right-to-left override, an isolate
HOSTILE = f"{OSC52}{CLEAR}{C1}{BIDI}\rover\bwrite \ud800"


def acting(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if ord(c) in ACTING})


@pytest.mark.parametrize("char, shown", [("\x1b", "\\x1b"), ("\x9b", "\\x9b"), ("\x07", "\\x07"), ("\r", "\\x0d"),
                                         ("\u202e", "\\u202e"), ("\u2066", "\\u2066"), ("\ud800", "\\ud800")])
def test_is_each_acting_character_written_as_its_escape(char, shown):
    assert inert(f"a{char}b") == f"a{shown}b"


def test_do_ordinary_text_tabs_and_newlines_stay_as_they_are():
    text = "Zoë Ünïcode 李雷 — ✓ got 3.0\n\tline two"
    assert inert(text) == text


def test_does_a_json_document_keep_its_values_and_lose_what_acts():
    value = {"message": HOSTILE, "name": "Zoë"}
    document = inert_json(json.dumps(value, ensure_ascii=False))
    assert not acting(document) and json.loads(document) == value


def hostile_report():
    r = report(f"ana{CLEAR}", task("mul", case("m1", "error", message=f"ValueError: {HOSTILE}",
                                                 title=f"title {BIDI}", details=(f"got: {OSC52}",))))
    return r.__class__(**{**r.__dict__, "notes": (f"skipped {OSC52}.py",), "import_output": f"printed {C1}"})


def test_does_the_terminal_report_carry_nothing_that_acts():
    out = io.StringIO()
    print_report(hostile_report(), Console(file=out, width=200, color_system=None), verbose=True)
    text = out.getvalue()
    assert not acting(text) and "\\x1b]52;c;" in text and "\\u202egnp.exe" in text


def test_does_an_error_row_in_the_terminal_carry_nothing_that_acts():
    out = io.StringIO()
    r = report("ana", task("add"), error=f"the child said: {OSC52}{BIDI}")
    print_report(r, Console(file=out, width=200, color_system=None))
    assert not acting(out.getvalue())


def test_do_the_page_the_json_and_gradescopes_results_carry_nothing_that_acts():
    r = hostile_report()
    assert not acting(render_feedback(r, student=f"ana{BIDI}"))
    assert not acting(render_json(r)) and json.loads(render_json(r))["tasks"][0]["cases"][0]["message"].endswith(
        HOSTILE)
    assert not acting(json.dumps(results_json(r), ensure_ascii=False))


def test_does_grade_print_a_notebooks_hostile_kernelspec_inert(tmp_path, capsys):
    from autograder.cli import main

    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": f"{OSC52}{CLEAR}julia"}},
          "cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": []}]}
    (tmp_path / "hw.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert main(["grade", str(tmp_path / "hw.ipynb")]) in (1, 2)
    captured = capsys.readouterr()
    assert "not a Python notebook" in captured.out and not acting(captured.out + captured.err)


def test_is_exactly_every_acting_character_caught_by_the_fast_check():
    """The check runs in C over the whole text; does it find every character of ACTING, alone or amid
    ordinary text, and leave every other code point of the first planes (and beyond) alone?"""
    points = [*range(0x3000), *range(0xD780, 0xE100), *range(0xFFF0, 0x10010), 0x10FFFF]
    for c in points:
        text = f"ok {chr(c)} ok"
        assert (inert(text) != text) == (c in ACTING), f"U+{c:04X}"
        document = json.dumps({"m": text}, ensure_ascii=False)
        assert (inert_json(document) != document) == (c in ACTING and c not in (0x09, 0x0A)
                                                      and document.count(chr(c)) > 0), f"U+{c:04X}"
