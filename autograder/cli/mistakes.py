"""The command line's own mistakes said in one line that names the fix: an option the subcommand
does not have (with the one it most likely meant), an argument too many, and a package the
autograder needs missing from the Python that runs it (a student outside the handout's venv)."""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path


def unknown_arguments(command: str, parser: argparse.ArgumentParser, extra: list[str]) -> str:
    """What argparse could not place, as `autograder COMMAND` sees it (not the top-level usage)."""
    options = [o for action in parser._actions for o in action.option_strings]  # argparse keeps them only there
    flag = next((word for word in extra if word.startswith("-") and word != "-"), None)
    where = f"`autograder {command} --help` lists them"
    if flag is None:
        return f"{command}: unexpected argument {extra[0]!r} ({where})"
    name = flag.split("=", 1)[0]
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f"{command}: no option {name}" + (f": did you mean {close[0]}?" if close else f" ({where})")


def missing_dependency(err: ModuleNotFoundError, command: str) -> str | None:
    """The one line for a package the autograder needs that this Python lacks; None when the missing
    module is the kit's own or the standard library's (a bug, not a set-up step)."""
    top = (err.name or "").partition(".")[0]
    if not top or top in ("autograder", "reference") or top in sys.stdlib_module_names:
        return None
    root = Path(__file__).resolve().parents[2]
    if (root / "requirements.txt").is_file():  # a student's handout
        fix = ("set up the handout's venv (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt), "
               f"then run .venv/bin/python -m autograder {command}")
    else:
        fix = f"run `make setup` in the kit's folder, then .venv/bin/python -m autograder {command}"
    return f"this Python ({sys.executable}) has no {top!r}, which the autograder needs: {fix}"
