"""The `autograder` command: a thin layer over the kit's functions.

Exit codes: 0 all passed (or in sync), 1 something failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder import paths
from autograder.config import ConfigError, Rubric, load_rubric, public_seed_warning, require_installed
from autograder.cli import mistakes
from autograder.cli.check_parts import run_exercises, whose, write_graph_files
from autograder.errors import ExitCode, KitError, UserError
from autograder.report.inert import inert
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


class UsageError(UserError):
    """A bad flag or input: one line on stderr, exit 2."""


# the commands whose parse needs nothing of the instructors' (merge, lms): their parsers, which import
# the LMS and batch modules, are built only for themselves, the top-level help and an unknown command
LIGHT = frozenset({"check", "grade", "exercises", "handout", "export"})


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder",
        description="backprop-kit: exercises and autograder for a micrograd-style engine.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parser.commands = sub.choices  # name -> its parser, to say a mistake as that subcommand sees it

    ex = sub.add_parser("exercises", help="write exercises/ from solutions/, or check they match")
    ex.add_argument("--check", action="store_true", help="write nothing; exit 1 if exercises/ differs")
    ex.add_argument("--solutions", type=Path, default=paths.SOLUTIONS, help="default: %(default)s")
    ex.add_argument("--exercises", type=Path, default=paths.EXERCISES, help="default: %(default)s")
    ex.set_defaults(run=_exercises)

    check = sub.add_parser("check", help="check a student's work on the public cases")
    check.add_argument("path", nargs="?", type=Path, default=Path("."),
                       help="a folder holding micrograd/ (or engine.py, nn.py, train.py), a .py or a .zip (default: .)")
    _add_grading_flags(check)
    check.add_argument("--graph", type=Path, metavar="DIR",
                       help="write a picture of each failing case's graph into DIR (SVG, with graphviz)")
    check.set_defaults(run=_check, include_hidden=False)

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
                            "wrote): ids not on it and students with no submission are named; the folder remembers it")
    grade.set_defaults(run=_grade, include_hidden=True)

    handout = sub.add_parser("handout", help="write what students get into OUT (nothing hidden)")
    handout.add_argument("out", type=Path, help="a new or empty folder")
    handout.add_argument("--config", type=Path, help="the rubric (default: ./assignment.toml, else built-in)")
    handout.add_argument("--roster", type=Path, metavar="ROSTER.csv",
                         help="with [variants]: one handout per student of the roster (a CSV with an `id` column)")
    handout.set_defaults(run=_handout)

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
    export.set_defaults(run=_export)

    for name in ("merge", "lms"):
        if command in LIGHT:  # named (so a choice list reads the same), never run
            sub.add_parser(name, help="(an instructor's command)")
        else:
            _add_instructors_parser(sub, name)
    return parser


def _add_instructors_parser(sub, command: str) -> None:
    """An instructor's subcommand, from its module; a student's handout names it and says whose it is."""
    try:
        _instructors(command).add_parser(sub)
    except UsageError:  # a student's handout: the command is named, and says whose it is
        stand_in = sub.add_parser(command, help="(an instructor's command)")
        stand_in.add_argument("rest", nargs=argparse.REMAINDER)
        stand_in.set_defaults(run=lambda args: _instructors(command))


def _instructors(command: str):
    """The module behind an instructor's command; a student's handout leaves those out."""
    import importlib

    try:
        return importlib.import_module(INSTRUCTOR_MODULES[command])
    except ModuleNotFoundError as err:
        if not (err.name or "").startswith("autograder."):
            raise
        raise UsageError(f"`autograder {command}` is an instructor's command: this copy of the autograder "
                         "(a student's handout) only checks your work (`autograder check`)") from None


# command -> the package it needs, which a handout does not ship
INSTRUCTOR_MODULES = {"handout": "autograder.editions", "export": "autograder.editions", "lms": "autograder.cli.lms",
                      "merge": "autograder.cli.merge",
                      "exercises": "autograder.exercises", "grade --out": "autograder.cli.batch"}

# the editions `export` writes (the folder handout has its own command); kept here, not imported
# from editions/, so that `--help` works in a student's handout, which ships no editions
EDITION_NAMES = ("otter", "nbgrader", "gradescope", "prairielearn")


def _handout(args) -> int:
    editions = _instructors("handout")

    try:
        rubric = _instructors_rubric(args)
        files = editions.edition("handout").write(args.out, rubric=rubric, roster=args.roster)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    if args.roster:
        print(f"Wrote one handout per student of {args.roster} not in {args.out} before ({_files(files)}); "
              f"{args.out}/variants.csv says whose variant is whose. Students start with their folder's README.md.")
    else:
        print(f"Wrote the handout to {args.out} ({_files(files)}). Students start with its README.md.")
    warning = public_seed_warning(rubric, before="before you grade")
    if warning:
        print(warning, file=sys.stderr)
    return 0


def _export(args) -> int:
    editions = _instructors("export")
    names = [e.name for e in editions.EDITIONS if e.name != "handout"]
    if args.edition not in names:
        raise UsageError(f"no edition {args.edition!r}: the kit writes " + (", ".join(names) or "none yet"))
    chosen = editions.edition(args.edition)
    try:
        rubric = _instructors_rubric(args)
        files = chosen.write(args.dest, rubric=rubric, assignment=args.assignment,
                             hidden_visibility=args.hidden_visibility, roster=args.roster)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    print(f"Wrote the {args.edition} edition to {args.dest} ({_files(files)}).")
    next_step = getattr(chosen, "next_step", None)  # an edition another tool finishes says how
    if next_step is not None:
        print(next_step(args.dest, roster=args.roster))
    return 0


def _instructors_rubric(args) -> Rubric:
    """The rubric as grading and the editions use it: the packages it allows are installed here."""
    from autograder.runner.packages import not_installed

    rubric = load_rubric(args.config)
    require_installed(rubric, not_installed)
    return rubric


def _files(files: list) -> str:
    return f"{len(files)} file" + ("" if len(files) == 1 else "s")


def _add_grading_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--task", action="append", choices=tuple(TITLE), metavar="ID",
                   help=f"only this task (repeatable): {', '.join(TASK_IDS)} (and a variant's extra operation)")
    p.add_argument("--student", metavar="ID",
                   help="with [variants]: grade against this student's variant (their id in the roster)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--config", type=Path, help="the rubric (default: ./assignment.toml, else built-in)")
    p.add_argument("--verbose", "-v", action="store_true", help="show every failing case")


def _grade(args) -> int:
    if args.out is None:
        if len(args.path) > 1:
            raise UsageError("several submissions need --out DIR for the gradebook and reports")
        if args.workers is not None or args.regrade or args.shard or args.executor or args.roster:
            raise UsageError("--workers, --regrade, --shard, --executor and --roster go with --out DIR")
        args.path = args.path[0]
        return _check(args)
    if args.task or args.format != "text":
        raise UsageError("--task and --format are for one submission; a class run writes every format into --out")
    if args.student:
        raise UsageError("--student is for one submission; a class run finds each student's id in the download")
    run_batch_command = _instructors("grade --out").run_batch_command
    rubric = _instructors_rubric(args)
    _warn_public_seed(rubric)
    return run_batch_command(args.path, args.out, args.workers, args.regrade, rubric,
                             shard=args.shard, executor=args.executor, roster=args.roster)


def _warn_public_seed(rubric) -> None:  # grade, once on stderr (an unset seed stops grading with its own line)
    warning = public_seed_warning(rubric, before="before you grade for marks")
    if warning and rubric.hidden_seed is not None:
        print(warning, file=sys.stderr)


def _check(args) -> int:
    from autograder.grading import grade_path  # keeps `autograder exercises` light
    from autograder.submission import holds_nothing

    if not args.path.exists():
        raise UsageError(f"{args.path}: no such file or folder")
    if holds_nothing(args.path):  # as `grade EMPTY --out X` says it: nothing to grade is not a grade of 0
        where = args.path if args.path.name else args.path.resolve()
        raise UsageError(f"no submission found in {where}: no micrograd/, engine.py, nn.py, train.py, other .py "
                         "or .ipynb in it; give the folder that holds the work")
    graphs = getattr(args, "graph", None)
    if graphs is not None and graphs.exists() and not graphs.is_dir():
        raise UsageError(f"--graph {graphs}: not a folder")
    try:
        rubric = whose(_instructors_rubric(args) if args.include_hidden else load_rubric(args.config), args.student,
                        grading=args.include_hidden)
        if args.include_hidden:
            _warn_public_seed(rubric)
        report = grade_path(args.path, rubric=rubric, include_hidden=args.include_hidden, tasks=args.task)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    if args.format == "json":
        from autograder.report.json_report import render_json
        sys.stdout.write(render_json(report))
    else:
        from autograder.report.text import print_report
        # a student's own check: what the sandbox can't hold concerns whoever grades others' code
        print_report(report if args.include_hidden else report.without_sandbox_notes(), verbose=args.verbose)
    if graphs is not None:
        write_graph_files(report, graphs)
    return report.exit_code


def _exercises(args) -> int:
    return run_exercises(args, _instructors("exercises"))


def main(argv: list[str] | None = None) -> int:
    try:
        words = argv if argv is not None else sys.argv[1:]
        # the instructor's subcommands' parsers (their modules import rich) only when they may be asked for
        parser = _parser(words[0] if words else None)
        args, extra = parser.parse_known_args(argv)
        if extra:  # said as the subcommand sees it, not with the top-level usage
            raise UsageError(mistakes.unknown_arguments(args.command, parser.commands[args.command], extra))
        return int(args.run(args))
    except ModuleNotFoundError as err:  # run by a Python without the kit's dependencies (rich, jinja2, ...)
        missing = mistakes.missing_dependency(err, next((a for a in (argv or sys.argv[1:]) if a[:1] != "-"), ""))
        if missing is None:
            raise
        print(f"autograder: {missing}", file=sys.stderr)
        return ExitCode.USAGE_ERROR
    except UserError as err:  # every user's mistake, wherever it was found: one line
        print(f"autograder: {inert(str(err))}", file=sys.stderr)  # it may name a student's file
        return ExitCode.USAGE_ERROR
    except KitError as err:
        print(f"autograder: internal error of the kit (please report it): {inert(str(err))}", file=sys.stderr)
        return ExitCode.KIT_BUG
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
