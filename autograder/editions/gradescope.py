"""The Gradescope autograder zip: setup.sh and run_autograder at its root, the kit, the rubric and
every golden (public and hidden, computed here, so the image needs neither torch nor the reference).

Upload it as the assignment's autograder (Configure Autograder, "Zip file upload"). See
autograder/gradescope/ for what it does there.
"""
from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

from autograder.config import Rubric, require_own_seed, rubric_toml
from autograder.gradescope.requirements import grading_requirements
from autograder.errors import UserError
from autograder.files import write_bytes_atomic
from autograder.goldens.shipped import every_golden, every_variants_goldens
from autograder.variants.roster import read_roster
from autograder.report.gradescope_json import VISIBILITIES

PACKAGE = Path(__file__).resolve().parents[1]          # autograder/
TEMPLATES = PACKAGE / "gradescope" / "templates"
LEFT_OUT = {"__pycache__", "public_goldens.json", "engines", "selfcheck.py"}
STAMP = (2020, 1, 1, 0, 0, 0)  # the same bytes for the same kit: a zip's dates are its files'


class GradescopeZip:
    name = "gradescope"
    summary = "a Gradescope autograder zip (setup.sh, run_autograder, the kit, the rubric, every golden)"

    def write(self, dest: Path, *, rubric: Rubric, hidden_visibility: str = "after_published",
              roster: Path | None = None, **_) -> list[Path]:
        """roster: with [variants], the students whose variants' goldens the zip carries (a CSV with `id`)."""
        dest = Path(dest)
        if dest.suffix.lower() != ".zip":
            raise UserError(f"{dest}: the Gradescope autograder is a zip: give a FILE.zip")
        if dest.exists():
            raise UserError(f"{dest} exists: give a new file name (or remove it)")
        require_own_seed(rubric)
        if hidden_visibility not in VISIBILITIES:
            raise UserError(f"--hidden-visibility must be one of {', '.join(VISIBILITIES)}")
        if rubric.variants is not None and roster is None:
            raise UserError("with [variants], the Gradescope zip carries every student's goldens: give --roster ROSTER.csv "
                            "(the ids Gradescope knows them by: their SID, else their email)")
        students = read_roster(roster) if rubric.variants is not None else None
        write_bytes_atomic(dest, build_zip(rubric, hidden_visibility=hidden_visibility, students=students))
        return [dest]


def build_zip(rubric: Rubric, *, hidden_visibility: str = "after_published", students: list[str] | None = None) -> bytes:
    """students: with [variants], the roster: secret/goldens/ then holds each one's variant's goldens (the image
    draws a submitter's variant from their SID and the secret in secret/assignment.toml)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        _add(zf, "setup.sh", (TEMPLATES / "setup.sh").read_bytes(), 0o755)
        _add(zf, "run_autograder", (TEMPLATES / "run_autograder").read_bytes(), 0o755)
        _add(zf, "requirements.txt", grading_requirements(rubric).encode())
        for path in kit_files():
            _add(zf, f"kit/autograder/{path.relative_to(PACKAGE).as_posix()}", path.read_bytes())
        _add(zf, "secret/assignment.toml", rubric_toml(rubric, with_seed=True).encode(), 0o600)
        if students is None:
            _add(zf, "secret/goldens.json", every_golden(rubric), 0o600)
        else:
            for name, data in sorted(every_variants_goldens(rubric, students).items()):
                _add(zf, f"secret/goldens/{name}", data, 0o600)
        _add(zf, "secret/settings.json", json.dumps({"hidden_visibility": hidden_visibility}).encode(), 0o600)
    return buffer.getvalue()


def kit_files() -> list[Path]:
    """The grader's own files (autograder/, no torch adapter, no public goldens): what a platform's image runs."""
    out = []
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT)
        out += [Path(folder) / f for f in sorted(files) if f not in LEFT_OUT and not f.endswith(".pyc")]
    return out


def _add(zf: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


EDITION = GradescopeZip()
