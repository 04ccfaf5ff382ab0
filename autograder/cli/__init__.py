"""The `autograder` command: a thin layer over the kit's functions.

Exit codes: 0 all passed (or in sync), 1 something failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder import paths
from autograder.config import ConfigError, load_rubric
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
                        help="gradescope, with [variants]: the students whose variants the zip grades")
    export.set_defaults(run=_export)

    for command in ("merge", "lms"):
        _add_instructors_parser(sub, command)
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

    from autograder.config import is_public_seed

    try:
        rubric = load_rubric(args.config)
        files = editions.edition("handout").write(args.out, rubric=rubric, roster=args.roster)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    if args.roster:
        print(f"Wrote one handout per student of {args.roster} into {args.out} ({len(files)} files); "
              f"{args.out}/variants.csv says whose variant is whose. Students start with their folder's README.md.")
    else:
        print(f"Wrote the handout to {args.out} ({len(files)} files). Students start with its README.md.")
    if is_public_seed(rubric.hidden_seed):
        print(f"warning: the hidden seed is {'not set' if rubric.hidden_seed is None else 'the kit’s public default'}"
              f" ({rubric.source}): anyone with the kit can regenerate your hidden cases. Set hidden_seed in "
              "assignment.toml or AUTOGRADER_HIDDEN_SEED to a number of your own before you grade.",
              file=sys.stderr)
    return 0


def _export(args) -> int:
    editions = _instructors("export")
    names = [e.name for e in editions.EDITIONS if e.name != "handout"]
    if args.edition not in names:
        raise UsageError(f"no edition {args.edition!r}: the kit writes " + (", ".join(names) or "none yet"))
    try:
        rubric = load_rubric(args.config)
        files = editions.edition(args.edition).write(args.dest, rubric=rubric, assignment=args.assignment,
                                                     hidden_visibility=args.hidden_visibility, roster=args.roster)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    print(f"Wrote the {args.edition} edition to {args.dest} ({len(files)} files).")
    return 0


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
        if args.workers is not None or args.regrade or args.shard or args.executor:
            raise UsageError("--workers, --regrade, --shard and --executor go with --out DIR")
        args.path = args.path[0]
        return _check(args)
    if args.task or args.format != "text":
        raise UsageError("--task and --format are for one submission; a class run writes every format into --out")
    if args.student:
        raise UsageError("--student is for one submission; a class run finds each student's id in the download")
    run_batch_command = _instructors("grade --out").run_batch_command
    try:
        rubric = load_rubric(args.config)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    return run_batch_command(args.path, args.out, args.workers, args.regrade, rubric,
                             shard=args.shard, executor=args.executor)


def _check(args) -> int:
    from autograder.grading import grade_path  # keeps `autograder exercises` light

    if not args.path.exists():
        raise UsageError(f"{args.path}: no such file or folder")
    graphs = getattr(args, "graph", None)
    if graphs is not None and graphs.exists() and not graphs.is_dir():
        raise UsageError(f"--graph {graphs}: not a folder")
    try:
        rubric = _whose(load_rubric(args.config), args.student, grading=args.include_hidden)
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
        _write_graphs(report, graphs)
    return report.exit_code


def _whose(rubric, student: str | None, *, grading: bool):
    """The rubric of the student whose work this is: --student's variant, else the handout's own."""
    from autograder.variants.assign import for_student
    from autograder.variants.handout_file import handout_rubric

    if student is not None:
        if rubric.variants is None:
            raise UsageError("--student needs a [variants] table in the rubric: without it every student has the "
                             "same assignment")
        return for_student(rubric, student)
    if grading and rubric.variants is not None:
        raise UsageError("this course has [variants]: say whose submission it is with --student ID (their roster id)")
    return handout_rubric(rubric)


def _write_graphs(report, folder: Path) -> None:
    """The pictures of --graph, and one line on stderr (stdout may be JSON) saying where."""
    from autograder.report import graph_svg
    from autograder.report.graph_files import write_graphs

    try:
        written = write_graphs(report, folder)
    except OSError as err:
        raise UsageError(f"--graph {folder}: {err.strerror or err}") from None
    why = graph_svg.missing()
    if why and written:
        print(f"note: {why}", file=sys.stderr)
    kind = "text graph(s)" if why else "graph picture(s)"
    print(f"Wrote {len(written)} {kind} of failing cases to {folder}/" if written
          else f"No failing case with a graph: nothing written to {folder}/", file=sys.stderr)


def _exercises(args) -> int:
    exercises = _instructors("exercises")
    MarkerError, check_exercises, write_exercises = (
        exercises.MarkerError, exercises.check_exercises, exercises.write_exercises)
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
        return int(args.run(args))
    except UserError as err:  # every user's mistake, wherever it was found: one line
        print(f"autograder: {inert(str(err))}", file=sys.stderr)  # it may name a student's file
        return ExitCode.USAGE_ERROR
    except KitError as err:
        print(f"autograder: internal error of the kit (please report it): {inert(str(err))}", file=sys.stderr)
        return ExitCode.KIT_BUG
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
