"""The `autograder` command: a thin layer over the kit's functions.

Exit codes: 0 all passed (or in sync), 1 something failed, 2 usage or input error.
"""
from __future__ import annotations

import sys
from pathlib import Path

from autograder.config import ConfigError, Rubric, load_rubric, public_seed_warning, require_installed
from autograder.errors import ExitCode, KitError, UserError

# A check imports only what a check needs (tests/cli/test_check_imports.py): the helpers of a mistake said
# (mistakes, inert), of --graph and of the other commands are imported where they are used.

class UsageError(UserError):
    """A bad flag or input: one line on stderr, exit 2."""


def _parser(command: str | None = None):
    """The parser of `command` alone (one of the kit's), else of every command (parsers.py)."""
    from autograder.cli import parsers

    runs = {"exercises": _exercises, "check": _check, "grade": _grade, "handout": _handout, "export": _export}
    return parsers.parser(runs, _add_instructors_parser, command)


def _add_instructors_parser(sub, command: str) -> None:
    """An instructor's subcommand, from its module; a student's handout names it and says whose it is."""
    try:
        _instructors(command).add_parser(sub)
    except UsageError:  # a student's handout: the command is named, and says whose it is
        stand_in = sub.add_parser(command, help="(an instructor's command)")
        import argparse

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
    _start_pool_server(args)
    run_batch_command = _instructors("grade --out").run_batch_command
    rubric = _instructors_rubric(args)
    _warn_public_seed(rubric)
    return run_batch_command(args.path, args.out, args.workers, args.regrade, rubric,
                             shard=args.shard, executor=args.executor, roster=args.roster)


def _start_pool_server(args) -> None:
    """A class run that grades everything in a pool: its workers' server starts now, importing the kit beside this
    process's imports (batch/early_server.py). Not in a student's handout (no batch package there)."""
    try:
        from autograder.batch import early_server
    except ImportError:
        return
    early_server.start(args.out, regrade=args.regrade, executor=args.executor)


def _warn_public_seed(rubric) -> None:  # grade, once on stderr (an unset seed stops grading with its own line)
    warning = public_seed_warning(rubric, before="before you grade for marks")
    if warning and rubric.hidden_seed is not None:
        print(warning, file=sys.stderr)


def _check(args) -> int:
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
    from autograder.cli.check_parts import whose

    try:
        rubric = whose(_instructors_rubric(args) if args.include_hidden else load_rubric(args.config), args.student,
                        grading=args.include_hidden)
        if args.include_hidden:
            _warn_public_seed(rubric)
        from autograder.runner.warm import warm  # the sandbox boots while grading imports and builds its cases

        warm(forbidden=rubric.forbidden_imports, allowed=rubric.allowed_imports)
        from autograder.grading import grade_path
        if args.format == "text":  # while it boots too
            from autograder.report.text import print_report, ready_rich

            ready_rich()  # imported only where the report needs it (report/terminal_plain.py)

        report = grade_path(args.path, rubric=rubric, include_hidden=args.include_hidden, tasks=args.task)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    if args.format == "json":
        from autograder.report.json_report import render_json
        sys.stdout.write(render_json(report))
    else:
        # a student's own check: what the sandbox can't hold concerns whoever grades others' code
        print_report(report if args.include_hidden else report.without_sandbox_notes(), verbose=args.verbose)
    if graphs is not None:
        from autograder.cli.check_parts import write_graph_files

        write_graph_files(report, graphs)
    return report.exit_code


def _exercises(args) -> int:
    from autograder.cli.check_parts import run_exercises

    return run_exercises(args, _instructors("exercises"))


def main(argv: list[str] | None = None) -> int:
    try:
        words = argv if argv is not None else sys.argv[1:]
        from autograder.cli.plain import plain_check

        args = plain_check(words, _check)  # `check` and `check PATH`: no parser built, nor argparse imported
        if args is not None:
            return int(args.run(args))
        # the instructor's subcommands' parsers (their modules import rich) only when they may be asked for
        parser = _parser(words[0] if words else None)
        args, extra = parser.parse_known_args(argv)
        if extra:  # said as the subcommand sees it, not with the top-level usage
            from autograder.cli import mistakes

            raise UsageError(mistakes.unknown_arguments(args.command, parser.commands[args.command], extra))
        return int(args.run(args))
    except ModuleNotFoundError as err:  # run by a Python without the kit's dependencies (rich, jinja2, ...)
        from autograder.cli import mistakes

        missing = mistakes.missing_dependency(err, next((a for a in (argv or sys.argv[1:]) if a[:1] != "-"), ""))
        if missing is None:
            raise
        print(f"autograder: {missing}", file=sys.stderr)
        return ExitCode.USAGE_ERROR
    except UserError as err:  # every user's mistake, wherever it was found: one line
        from autograder.report.inert import inert

        print(f"autograder: {inert(str(err))}", file=sys.stderr)  # it may name a student's file
        return ExitCode.USAGE_ERROR
    except KitError as err:
        from autograder.report.inert import inert

        print(f"autograder: internal error of the kit (please report it): {inert(str(err))}", file=sys.stderr)
        return ExitCode.KIT_BUG
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
