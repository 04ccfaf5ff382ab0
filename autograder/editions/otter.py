"""The otter-grader edition: DIR/backprop.ipynb (the master notebook, then `otter assign`) and what it needs.

    DIR/backprop.ipynb      one question per task, solutions between otter's markers, one test per case
    DIR/autograder/         the student-side kit (as in the handout, public goldens included): the tests
                            call it; otter copies it to dist/student and the autograder (`files`)
    DIR/assignment.toml     the public rubric
    DIR/kit_secret/         the rubric with the hidden seed and every golden: the autograder zip only
                            (`autograder_files`), never dist/student
    DIR/requirements.txt    what grading needs on Gradescope's image (no torch: the goldens ship)
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.config import Rubric, require_own_seed
from autograder.gradescope.requirements import grading_requirements
from autograder.files import write_text_atomic
from autograder.notebooks.support import fresh_folder, require_one_assignment, write_secret, write_student_kit

NOTEBOOK = "backprop.ipynb"


class OtterEdition:
    name = "otter"
    summary = "an otter-grader master notebook (then: otter assign DIR/backprop.ipynb dist)"

    def write(self, dest: Path, *, rubric: Rubric, **_) -> list[Path]:
        from autograder.notebooks.otter_master import master_notebook

        require_own_seed(rubric)
        require_one_assignment(rubric, "otter")
        dest = fresh_folder(dest)
        write_text_atomic(dest / NOTEBOOK, nbformat.writes(master_notebook(rubric)))
        write_student_kit(dest, rubric)
        write_secret(dest / "kit_secret", rubric)
        write_text_atomic(dest / "requirements.txt", grading_requirements(rubric))
        return sorted(p for p in dest.rglob("*") if p.is_file())


EDITION = OtterEdition()
