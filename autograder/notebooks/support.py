"""What a notebook edition ships beside its notebook: the student-side kit, the public rubric, and (for
the instructor only) kit_secret/ with the hidden seed and every golden."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from autograder.config import Rubric, rubric_toml
from autograder.errors import UserError
from autograder.files import write_bytes_atomic, write_text_atomic
from autograder.goldens.shipped import every_golden, every_variants_goldens
from autograder.variants.handout_file import write_variant_file


ALONE = ("backprop-kit: this notebook's checks need the autograder/ folder that came with it: open the notebook "
         "inside the whole folder you were given, not on its own")


def importing(name: str, fallback: str) -> str:
    """A test cell's import of notebook_check's `name`: where the autograder/ folder is not beside the
    notebook (a student who downloaded the notebook alone), one line saying so, and `fallback`."""
    return (f"try:\n    from autograder.notebook_check import {name}\nexcept ImportError:\n"
            f"    {name} = lambda *args, **kwargs: print({ALONE!r}) or {fallback}")


def write_student_kit(dest: Path, rubric: Rubric) -> None:
    """dest/autograder/ (the check tool and the public goldens, as in the handout) and dest/assignment.toml."""
    from autograder.handout.write import write_handout

    with tempfile.TemporaryDirectory(prefix="kit-edition-") as tmp:
        write_handout(Path(tmp) / "h", rubric=rubric)
        shutil.copytree(Path(tmp) / "h" / "autograder", dest / "autograder")
        shutil.copy(Path(tmp) / "h" / "assignment.toml", dest / "assignment.toml")


def write_secret(secret: Path, rubric: Rubric, *, private_from: Path | None = None,
                 students: list[str] | None = None) -> None:
    """secret/assignment.toml (with the hidden seed) and secret/goldens.json: the instructor's only, as
    files (0600 in 0700 folders, secret and every folder above it up to private_from, as the Gradescope
    zip has them): a student's code run as another user (the sandbox's uid levels) can't read them.
    students: with [variants], grading draws each one's variant there: secret/goldens/ holds their goldens."""
    secret = Path(secret)
    secret.mkdir(parents=True, exist_ok=True)
    folder = secret
    while True:
        os.chmod(folder, 0o700)
        if private_from is None or folder == Path(private_from) or folder.parent == folder:
            break
        folder = folder.parent
    for name, data in (("assignment.toml", rubric_toml(rubric, with_seed=True).encode()),
                       ("goldens.json", every_golden(rubric))):
        write_bytes_atomic(secret / name, data)
        os.chmod(secret / name, 0o600)
    if rubric.variant.student:   # one student's edition: the variant its hidden cases are of
        os.chmod(write_variant_file(secret, rubric), 0o600)
    for name, data in sorted(every_variants_goldens(rubric, students).items()) if students else ():
        (secret / "goldens").mkdir(mode=0o700, exist_ok=True)
        write_bytes_atomic(secret / "goldens" / name, data)
        os.chmod(secret / "goldens" / name, 0o600)


def fresh_folder(dest: Path) -> Path:
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UserError(f"{dest} is not an empty folder: choose a new one")
    dest.mkdir(parents=True, exist_ok=True)
    return dest
