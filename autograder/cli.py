"""The `autograder` command: a thin layer over the kit's functions.

Exit codes: 0 all passed (or in sync), 1 something failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder import paths
from autograder.exercises import MarkerError, check_exercises, write_exercises

EXAMPLES = """\
examples:
  autograder exercises            write exercises/ from solutions/
  autograder exercises --check    exit 1 if exercises/ is out of date
"""


class UsageError(Exception):
    """A bad flag or input: one line on stderr, exit 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder",
        description="backprop-kit: exercises and autograder for a micrograd-style engine.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ex = sub.add_parser("exercises", help="write exercises/ from solutions/, or check they match")
    ex.add_argument("--check", action="store_true", help="write nothing; exit 1 if exercises/ differs")
    ex.add_argument("--solutions", type=Path, default=paths.SOLUTIONS, help="default: %(default)s")
    ex.add_argument("--exercises", type=Path, default=paths.EXERCISES, help="default: %(default)s")
    ex.set_defaults(run=_exercises)
    return parser


def _exercises(args) -> int:
    if not args.solutions.is_dir():
        raise UsageError(f"no solutions folder at {args.solutions}")
    try:
        if args.check:
            problems = check_exercises(args.solutions, args.exercises)
            for line in problems:
                print(line)
            if problems:
                print("exercises/ is out of date: run `autograder exercises` to regenerate it.")
                return 1
            print(f"exercises/ matches {args.solutions}.")
            return 0
        changed = write_exercises(args.solutions, args.exercises)
    except MarkerError as err:
        raise UsageError(str(err)) from None
    for path in changed:
        print(f"wrote {path}")
    print(f"exercises/ is up to date ({len(changed)} file(s) changed).")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as err:
        print(f"autograder: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130
