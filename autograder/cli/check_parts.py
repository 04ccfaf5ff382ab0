"""Parts of the `check`, `grade` and `exercises` commands kept apart from the parser: whose rubric a
submission is graded with (its variant), the --graph files, and writing or checking exercises/."""
from __future__ import annotations

import sys
from pathlib import Path

from autograder.errors import UserError


def whose(rubric, student: str | None, *, grading: bool):
    """The rubric of the student whose work this is: --student's variant, else the handout's own."""
    from autograder.variants.handout_file import handout_rubric

    if student is not None:
        from autograder.variants.assign import for_student  # a variant's draw: only for --student

        if rubric.variants is None:
            raise UserError("--student needs a [variants] table in the rubric: without it every student has the "
                             "same assignment")
        return for_student(rubric, student)
    if grading and rubric.variants is not None:
        raise UserError("this course has [variants]: say whose submission it is with --student ID (their roster id)")
    return handout_rubric(rubric)


def write_graph_files(report, folder: Path) -> None:
    """The pictures of --graph, and one line on stderr (stdout may be JSON) saying where."""
    from autograder.report import graph_svg
    from autograder.report.graph_files import write_graphs

    try:
        written = write_graphs(report, folder)
    except OSError as err:
        raise UserError(f"--graph {folder}: {err.strerror or err}") from None
    why = graph_svg.missing()
    if why and written:
        print(f"note: {why}", file=sys.stderr)
    kind = "text graph(s)" if why else "graph picture(s)"
    print(f"Wrote {len(written)} {kind} of failing cases to {folder}/" if written
          else f"No failing case with a graph: nothing written to {folder}/", file=sys.stderr)


def run_exercises(args, exercises) -> int:
    """`autograder exercises [--check]`, with the kit's exercises module (a handout has none)."""
    MarkerError, check_exercises, write_exercises = (
        exercises.MarkerError, exercises.check_exercises, exercises.write_exercises)
    if not args.solutions.is_dir():
        raise UserError(f"no solutions folder at {args.solutions}")
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
        raise UserError(str(err)) from None
    for path in changed:
        print(f"wrote {path}")
    print(f"exercises/ is up to date ({len(changed)} file(s) changed).")
    return 0
