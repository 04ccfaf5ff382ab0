"""The nbgrader edition: COURSE/source/<assignment>/backprop.ipynb and what it needs, in an nbgrader course.

    COURSE/source/<id>/backprop.ipynb   answer cells and one test cell per task (notebooks/nbgrader_source.py)
    COURSE/source/<id>/autograder/      the student-side kit (released with the notebook; autograding
                                        copies the source's files over the students' own)
    COURSE/source/<id>/assignment.toml  the public rubric
    COURSE/kit_secret/<id>/             the hidden seed and every golden: outside source/, so never released
    COURSE/nbgrader_config.py           a minimal one, if the course has none
Then, in COURSE: nbgrader generate_assignment <id>; collect; nbgrader autograde <id>; nbgrader export.
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.config import Rubric, require_own_seed
from autograder.errors import UserError
from autograder.files import write_text_atomic
from autograder.notebooks.support import fresh_folder, require_one_assignment, write_secret, write_student_kit

NOTEBOOK = "backprop.ipynb"
CONFIG = """\
# nbgrader's configuration of this course (written by backprop-kit; yours to extend)
c = get_config()
c.CourseDirectory.course_id = "backprop"
"""


class NbgraderEdition:
    name = "nbgrader"
    summary = "an nbgrader source notebook in COURSE/source/<assignment>/ (then: nbgrader generate_assignment)"

    def write(self, dest: Path, *, rubric: Rubric, assignment: str = "hw1", **_) -> list[Path]:
        from autograder.notebooks.nbgrader_source import source_notebook

        require_own_seed(rubric)
        require_one_assignment(rubric, "nbgrader")
        if not assignment or not all(c.isalnum() or c in "-_" for c in assignment):
            raise UserError(f"--assignment {assignment!r}: use letters, digits, - and _ (nbgrader's folder name)")
        course = Path(dest)
        folder = fresh_folder(course / "source" / assignment)
        secret = course / "kit_secret" / assignment
        # from autograded/<student>/<assignment>/, where nbgrader runs the notebook
        nb = source_notebook(rubric, secret=f"../../../kit_secret/{assignment}")
        write_text_atomic(folder / NOTEBOOK, nbformat.writes(nb))
        write_student_kit(folder, rubric)
        write_secret(secret, rubric, private_from=course / "kit_secret")
        written = [*folder.rglob("*"), *secret.iterdir()]
        if not (course / "nbgrader_config.py").exists():
            write_text_atomic(course / "nbgrader_config.py", CONFIG)
            written.append(course / "nbgrader_config.py")
        return sorted(p for p in written if p.is_file())


EDITION = NbgraderEdition()
