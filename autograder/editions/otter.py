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

import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder.config import Rubric, require_own_seed, rubric_toml
from autograder.errors import UserError
from autograder.files import write_bytes_atomic, write_text_atomic
from autograder.goldens.shipped import every_golden

NOTEBOOK = "backprop.ipynb"
REQUIREMENTS = ("rich>=13", "jinja2>=3", "nbformat>=5.1", "matplotlib>=3.7")


def write_support(dest: Path, rubric: Rubric) -> list[Path]:
    """autograder/, assignment.toml, kit_secret/ and requirements.txt: what every notebook edition ships."""
    from autograder.handout.write import write_handout

    with tempfile.TemporaryDirectory(prefix="kit-edition-") as tmp:
        write_handout(Path(tmp) / "h", rubric=rubric)
        shutil.copytree(Path(tmp) / "h" / "autograder", dest / "autograder")
        shutil.copy(Path(tmp) / "h" / "assignment.toml", dest / "assignment.toml")
    write_text_atomic(dest / "kit_secret" / "assignment.toml", rubric_toml(rubric, with_seed=True))
    write_bytes_atomic(dest / "kit_secret" / "goldens.json", every_golden(rubric))
    write_text_atomic(dest / "requirements.txt", "\n".join([*REQUIREMENTS, *rubric.allowed_imports]) + "\n")
    return sorted(p for p in dest.rglob("*") if p.is_file())


def fresh_folder(dest: Path) -> Path:
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UserError(f"{dest} is not an empty folder: choose a new one")
    dest.mkdir(parents=True, exist_ok=True)
    return dest


class OtterEdition:
    name = "otter"
    summary = "an otter-grader master notebook (then: otter assign DIR/backprop.ipynb dist)"

    def write(self, dest: Path, *, rubric: Rubric, **_) -> list[Path]:
        from autograder.notebooks.otter_master import master_notebook

        require_own_seed(rubric)
        dest = fresh_folder(dest)
        write_text_atomic(dest / NOTEBOOK, nbformat.writes(master_notebook(rubric)))
        return write_support(dest, rubric)


EDITION = OtterEdition()
