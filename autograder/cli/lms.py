"""`autograder lms canvas|moodle OUT ...`: the grade files an LMS imports, from a grade output folder;
`autograder lms push|jwk`: the scores straight into the LMS by LTI 1.3 (lms_push.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder.cli import lms_push
from autograder.errors import ExitCode
from autograder.lms.canvas import canvas_import
from autograder.lms.graded import LmsError, on_the_roster, read_graded
from autograder.lms.grades import check_late_penalty, late_and_ungraded
from autograder.lms.moodle import moodle_import
from autograder.report.inert import inert


def add_parser(sub) -> None:
    lms = sub.add_parser("lms", help="grades for Canvas or Moodle: files to import, or pushed by LTI 1.3")
    which = lms.add_subparsers(dest="lms", required=True, metavar="LMS")
    canvas = which.add_parser("canvas", help="OUT/canvas-import.csv: your Canvas gradebook export, this assignment filled")
    canvas.add_argument("out", type=Path, help="the folder `autograder grade ... --out` wrote")
    canvas.add_argument("--gradebook", type=Path, required=True, help="the CSV Canvas exported (Grades > Export)")
    canvas.add_argument("--assignment", help="the assignment's column, by name or id (needed when the export has several)")
    moodle = which.add_parser("moodle", help="OUT/moodle-grades.csv and OUT/moodle-feedback.zip for Moodle")
    moodle.add_argument("out", type=Path, help="the folder `autograder grade ... --out` wrote")
    moodle.add_argument("--worksheet", type=Path, required=True,
                        help="the assignment's offline grading worksheet (Download grading worksheet)")
    lms.set_defaults(run=run)
    lms_push.add_parsers(which)
    for p in (canvas, moodle):
        p.add_argument("--percent", action="store_true", help="write percentages instead of points")
        p.add_argument("--late-penalty", type=float, default=0.0, metavar="PERCENT",
                       help="take PERCENT off the grade of a submission the LMS marked late (default: 0, flagged only)")
        p.add_argument("--changed", action="store_true",
                       help="only the scores the last regrade changed (OUT/regrade-changes.csv); every other cell "
                            "left as the LMS's file has it")


def only_changed(out: Path, graded: list) -> list:
    """The rows whose score the last regrade changed; LmsError without OUT/regrade-changes.csv."""
    from autograder.batch.regrade_changes import CSV_NAME, changed_students

    changed = changed_students(Path(out))
    if changed is None:
        raise LmsError(f"--changed: {out} has no {CSV_NAME} (a regrade into it writes one): leave --changed out")
    print(f"only the {len(changed)} score(s) the last regrade changed ({Path(out) / CSV_NAME})")
    return [g for g in graded if g.student in changed]


def run(args: argparse.Namespace) -> int:
    check_late_penalty(args.late_penalty)
    graded, left_out = on_the_roster(read_graded(args.out))
    if args.changed:
        graded = only_changed(args.out, graded)
    options = {"percent": args.percent, "late_penalty": args.late_penalty}
    if args.lms == "canvas":
        dest, result = canvas_import(args.out, args.gradebook, graded, assignment=args.assignment, **options)
        scale = "percentages" if args.percent else (
            f"points out of {result.out_of:g}" if result.out_of is not None else "the kit's points")
        print(f"Wrote {dest}: column {result.column!r} filled for {len(result.filled)} students ({scale}). "
              "Import it in Canvas: Grades > Import.")
        written = [dest]
    else:
        written, result = moodle_import(args.out, args.worksheet, graded, **options)
        print(f"Wrote {written[0]} ({len(result.filled)} grades) and {written[1]}. In Moodle's assignment: "
              "Upload grading worksheet, then Upload multiple feedback files in a zip.")
        if not result.comments:
            print("note: the worksheet has no 'Feedback comments' column (feedback comments are off): "
                  "grades only; the feedback pages are in the zip")
    for line in late_and_ungraded(result.filled, args.late_penalty):
        print(inert(line))
    for line in left_out:
        print(inert(line.replace("not sent", "not written", 1)))
    for g, why in result.kept:
        print(inert(f"left as it was: {g.student}: {why}"))
    for g, why in result.unmatched:
        print(inert(f"not written: {g.student}: {why}"))
    return ExitCode.FAILED if result.unmatched else ExitCode.OK
