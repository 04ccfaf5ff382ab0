"""The `autograder` command's parser: each subcommand's flags, built only for the command asked for."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from autograder import paths
from autograder.tasks import TASK_IDS, TITLE

EXAMPLES = """\
examples:
  autograder check                      check the micrograd/ in this folder (public cases)
  autograder check my_work/ --task mul  only the mul task
  autograder check --format json        the same, as JSON
  autograder check --graph graphs/      and an SVG of each failing case's graph
  autograder grade alice.zip            one submission, public and hidden cases
  autograder grade class.zip --out grades/hw1      a class: gradebook, feedback, summary.html
  autograder grade class.zip --out s1 --shard 1/2   one shard of a class (then: autograder merge s1 s2 --out ...)
  autograder lms canvas grades/hw1 --gradebook export.csv   the grades as Canvas imports them
  autograder lms push grades/hw1 --lti platform.toml   the scores straight into the LMS (LTI 1.3)
  autograder handout hw1-handout/       what students get (nothing hidden)
  autograder export gradescope hw1.zip  a Gradescope autograder (also: otter DIR, nbgrader COURSE, prairielearn DIR)
  autograder exercises                  write exercises/ from solutions/
  autograder exercises --check          exit 1 if exercises/ is out of date
"""

# the editions `export` writes (the folder handout has its own command); kept here, not imported
# from editions/, so that `--help` works in a student's handout, which ships no editions
EDITION_NAMES = ("otter", "nbgrader", "gradescope", "prairielearn")


def parser(runs: dict, instructors: Callable, command: str | None = None) -> argparse.ArgumentParser:
    """The parser of `command` alone when it is one of the kit's (each subcommand's parser costs its build:
    a check builds only its own), else of them all (the top-level help, an unknown command). runs: command ->
    the function that runs it; instructors(sub, name) adds an instructor's command's parser (merge, lms: from
    its module, which a student's handout leaves out)."""
    parser = argparse.ArgumentParser(
        prog="autograder",
        description="backprop-kit: exercises and autograder for a micrograd-style engine.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parser.commands = sub.choices  # name -> its parser, to say a mistake as that subcommand sees it
    for name, add in SUBCOMMANDS.items():
        if command not in SUBCOMMANDS or name == command:
            add(sub, runs[name]) if add is not None else instructors(sub, name)
    return parser


def _add_exercises(sub, run) -> None:
    ex = sub.add_parser("exercises", help="write exercises/ from solutions/, or check they match")
    ex.add_argument("--check", action="store_true", help="write nothing; exit 1 if exercises/ differs")
    ex.add_argument("--solutions", type=Path, default=paths.SOLUTIONS, help="default: %(default)s")
    ex.add_argument("--exercises", type=Path, default=paths.EXERCISES, help="default: %(default)s")
    ex.set_defaults(run=run)


def _add_check(sub, run) -> None:
    check = sub.add_parser("check", help="check a student's work on the public cases")
    check.add_argument("path", nargs="?", type=Path, default=Path("."),
                       help="a folder holding micrograd/ (or engine.py, nn.py, train.py), a .py or a .zip (default: .)")
    _add_grading_flags(check)
    check.add_argument("--graph", type=Path, metavar="DIR",
                       help="write a picture of each failing case's graph into DIR (SVG, with graphviz)")
    check.set_defaults(run=run, include_hidden=False)


def _add_grade(sub, run) -> None:
    grade = sub.add_parser("grade", help="grade one submission, or a class with --out")
    grade.add_argument("path", type=Path, nargs="+",
                       help="submissions: folders, .py, .ipynb, .zip, an LMS download, or a folder of them")
    _add_grading_flags(grade)
    grade.add_argument("--out", type=Path, help="grade a class: write gradebook, reports, feedback and summary here")
    grade.add_argument("--workers", type=int, help="parallel submissions (default: the number of cores)")
    grade.add_argument("--regrade", action="store_true", help="with --out: grade everything again, not only what is new")
    grade.add_argument("--shard", metavar="I/N", help="with --out: grade only shard I of N (a stable split by student "
                                                       "id); `autograder merge` joins the shards")
    grade.add_argument("--executor", metavar="WHERE", help="with --out: local (default: a process pool here) or "
                                                            "dask://HOST:PORT (a running dask.distributed cluster)")
    grade.add_argument("--roster", type=Path, metavar="ROSTER.csv",
                       help="with --out: the class list (a CSV with an `id` column, or the folder `handout --roster` "
                            "wrote): ids not on it and students with no submission are named; the folder remembers it "
                            "(with --shard: the same one on every shard)")
    grade.set_defaults(run=run, include_hidden=True)


def _add_handout(sub, run) -> None:
    handout = sub.add_parser("handout", help="write what students get into OUT (nothing hidden)")
    handout.add_argument("out", type=Path, help="a new or empty folder")
    handout.add_argument("--config", type=Path, help="the rubric (default: ./assignment.toml, else built-in)")
    handout.add_argument("--roster", type=Path, metavar="ROSTER.csv",
                         help="with [variants]: one handout per student of the roster (a CSV with an `id` column)")
    handout.set_defaults(run=run)


def _add_export(sub, run) -> None:
    export = sub.add_parser("export", help="write an edition of the assignment for a platform (see `export --help`)")
    export.add_argument("edition", metavar="EDITION", help="which edition: " + ", ".join(EDITION_NAMES))
    export.add_argument("dest", type=Path, help="where to write it (a new or empty folder, or FILE.zip)")
    export.add_argument("--assignment", default="hw1", help="the assignment's id, where the platform needs one "
                                                            "(default: %(default)s)")
    export.add_argument("--hidden-visibility", default="after_published",
                        choices=("hidden", "after_due_date", "after_published", "visible"),
                        help="gradescope: when students see how the hidden cases went (default: %(default)s)")
    export.add_argument("--config", type=Path, help="the rubric (default: ./assignment.toml, else built-in)")
    export.add_argument("--roster", type=Path, metavar="ROSTER.csv",
                        help="with [variants]: gradescope, the students whose variants the zip grades; otter, "
                             "one master notebook per student; nbgrader, the students autograding draws variants for")
    export.set_defaults(run=run)


def _add_grading_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--task", action="append", choices=tuple(TITLE), metavar="ID",
                   help=f"only this task (repeatable): {', '.join(TASK_IDS)} (and a variant's extra operation)")
    p.add_argument("--student", metavar="ID",
                   help="with [variants]: grade against this student's variant (their id in the roster)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--config", type=Path, help="the rubric (default: ./assignment.toml, else built-in)")
    p.add_argument("--verbose", "-v", action="store_true", help="show every failing case")


# name -> what adds its parser, in the order the help lists them; None: an instructor's (merge, lms), whose
# module imports the LMS and batch modules, built only for itself, the top-level help and an unknown command
SUBCOMMANDS = {"exercises": _add_exercises, "check": _add_check, "grade": _add_grade, "handout": _add_handout,
               "export": _add_export, "merge": None, "lms": None}
