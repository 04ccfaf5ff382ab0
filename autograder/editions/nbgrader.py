"""The nbgrader edition: COURSE/source/<assignment>/backprop.ipynb and what it needs, in an nbgrader course.

    COURSE/source/<id>/backprop.ipynb   answer cells and one test cell per task (notebooks/nbgrader_source.py)
    COURSE/source/<id>/autograder/      the student-side kit (released with the notebook; autograding
                                        copies the source's files over the students' own)
    COURSE/source/<id>/assignment.toml  the public rubric
    COURSE/kit_secret/<id>/             the hidden seed and every golden: outside source/, so never released
    COURSE/nbgrader_config.py           a minimal one, if the course has none
Then, in COURSE: nbgrader generate_assignment <id>; collect; nbgrader autograde <id>; nbgrader export.

With [variants] and --roster: nbgrader releases one notebook to the whole class (no per-student release:
nbgrader #1153, #1433), so the dimensions that need no notebook of the student's own are carried: autograding
draws each student's activation and random cases from the id nbgrader grades them under (the folder
autograded/<student>/<id>/), with kit_secret/<id>/goldens/ holding the roster's goldens. An extra operation
per student ("op" in vary) is refused in one line: it would need a notebook of each student's own.
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.config import Rubric, require_own_seed
from autograder.errors import UserError
from autograder.files import write_text_atomic
from autograder.notebooks.support import fresh_folder, write_secret, write_student_kit
from autograder.variants.roster import read_roster

ONE_RELEASE = ("nbgrader releases one notebook to the whole class (no per-student release: nbgrader #1153, #1433), so "
               "it can't give each student an extra operation of their own to write: for an nbgrader course, vary only "
               "activation and seed in [variants] (autograding draws them from each student's nbgrader id), or hand out "
               "`autograder handout OUT --roster ROSTER.csv` folders")

NOTEBOOK = "backprop.ipynb"
CONFIG = """\
# nbgrader's configuration of this course (written by backprop-kit; yours to extend)
c = get_config()
c.CourseDirectory.course_id = "backprop"
"""


class NbgraderEdition:
    name = "nbgrader"
    summary = "an nbgrader source notebook in COURSE/source/<assignment>/ (then: nbgrader generate_assignment)"

    def write(self, dest: Path, *, rubric: Rubric, assignment: str = "hw1", roster: Path | None = None,
              **_) -> list[Path]:
        """roster: with [variants], the students autograding draws variants for (their nbgrader ids)."""
        from autograder.notebooks.nbgrader_source import source_notebook

        require_own_seed(rubric)
        students = drawn_for(rubric, roster)
        if not assignment or not all(c.isalnum() or c in "-_" for c in assignment):
            raise UserError(f"--assignment {assignment!r}: use letters, digits, - and _ (nbgrader's folder name)")
        course = Path(dest)
        folder = fresh_folder(course / "source" / assignment)
        secret = course / "kit_secret" / assignment
        # from autograded/<student>/<assignment>/, where nbgrader runs the notebook
        nb = source_notebook(rubric, secret=f"../../../kit_secret/{assignment}")
        write_text_atomic(folder / NOTEBOOK, nbformat.writes(nb))
        write_student_kit(folder, rubric)
        write_secret(secret, rubric, private_from=course / "kit_secret", students=students)
        written = [*folder.rglob("*"), *secret.rglob("*")]
        if not (course / "nbgrader_config.py").exists():
            write_text_atomic(course / "nbgrader_config.py", CONFIG)
            written.append(course / "nbgrader_config.py")
        return sorted(p for p in written if p.is_file())


def drawn_for(rubric: Rubric, roster: Path | None) -> list[str] | None:
    """The roster's ids, whose variants autograding draws (None without [variants]); a one-line UserError for
    an extra operation per student, or no roster."""
    if rubric.variants is None:
        return None
    if "op" in rubric.variants.vary:
        raise UserError(f"the nbgrader edition can't carry an extra operation per student: {ONE_RELEASE}")
    if roster is None:
        raise UserError("with [variants], nbgrader's autograding draws each student's variant: give --roster "
                        "ROSTER.csv (the students' nbgrader ids), whose goldens the course's kit_secret/ holds")
    return read_roster(roster)


EDITION = NbgraderEdition()
