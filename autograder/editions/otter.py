"""The otter-grader edition: DIR/backprop.ipynb (the master notebook, then `otter assign`) and what it needs.

    DIR/backprop.ipynb      one question per task, solutions between otter's markers, one test per case
    DIR/autograder/         the student-side kit (as in the handout, public goldens included): the tests
                            call it; otter copies it to dist/student and the autograder (`files`)
    DIR/assignment.toml     the public rubric
    DIR/kit_secret/         the rubric with the hidden seed and every golden: the autograder zip only
                            (`autograder_files`), never dist/student
    DIR/requirements.txt    what grading needs on Gradescope's image (no torch: the goldens ship)
    DIR/tests/              each question's public tests as files (notebooks/otter_tests.py), for
                            `otter check backprop.ipynb -q TASK` in dist/student (`files`); grading
                            uses the autograder's own tests

With [variants] and --roster: otter assign has no per-student variants (otter-grader #490), so the kit writes
one master notebook per student, DIR/<id>/ as above for that student's variant (their extra operation's
question and cases, their signed variant file, their hidden goldens), and DIR/variants.csv; the instructor
runs `otter assign` in each. Each dist/<id>/autograder zip grades that one student's notebook (`otter run`).
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.config import Rubric, require_own_seed
from autograder.errors import UserError
from autograder.gradescope.requirements import grading_requirements
from autograder.files import write_text_atomic
from autograder.notebooks.support import fresh_folder, write_secret, write_student_kit

NOTEBOOK = "backprop.ipynb"
PER_STUDENT = ("with [variants], the otter edition is one master notebook per student (otter assign has no "
               "per-student variants: otter-grader #490): give --roster ROSTER.csv")


class OtterEdition:
    name = "otter"
    summary = "an otter-grader master notebook (then: otter assign DIR/backprop.ipynb dist); one per student with --roster"

    def next_step(self, dest: Path, *, roster: Path | None = None) -> str:
        """What the instructor runs next (the README's otter section)."""
        if roster is None:
            return f"Next: cd {dest} && otter assign {NOTEBOOK} dist"
        return (f"Next, in each student's folder: for d in {dest}/*/; do (cd \"$d\" && otter assign {NOTEBOOK} dist); "
                "done")

    def write(self, dest: Path, *, rubric: Rubric, roster: Path | None = None, **_) -> list[Path]:
        """roster: with [variants], one master notebook per student of it, each of that student's variant."""
        require_own_seed(rubric)
        if rubric.variants is None and roster is None:
            return write_master(fresh_folder(dest), rubric)
        if roster is None:
            raise UserError(PER_STUDENT)
        from autograder.handout.roster import write_per_student

        return write_per_student(dest, rubric=rubric, roster=roster, what="one otter master notebook per student",
                                 write_one=lambda folder, mine: write_master(fresh_folder(folder), mine))


def write_master(dest: Path, rubric: Rubric) -> list[Path]:
    """dest/: the master notebook of the rubric's variant, its tests/, student kit, kit_secret/ and requirements.txt."""
    from autograder.notebooks.otter_master import master_notebook
    from autograder.notebooks.otter_tests import write_student_tests

    master = master_notebook(rubric)
    write_text_atomic(dest / NOTEBOOK, nbformat.writes(master))
    write_student_tests(dest / "tests", master)
    write_student_kit(dest, rubric)
    write_secret(dest / "kit_secret", rubric)
    write_text_atomic(dest / "requirements.txt", grading_requirements(rubric))
    return sorted(p for p in dest.rglob("*") if p.is_file())


EDITION = OtterEdition()
