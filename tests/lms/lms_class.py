"""A real graded class for the LMS tests: a Canvas download and a Moodle download of the solutions, a
buggy mul and a stub, graded by `autograder grade --out` (once per test session)."""
from __future__ import annotations

from pathlib import Path

from autograder.cli import main
from autograder.paths import KIT_ROOT

SOLUTIONS = KIT_ROOT / "solutions" / "micrograd"
EXERCISES = KIT_ROOT / "exercises" / "micrograd"


def one_file(folder: Path = SOLUTIONS, *, mul_bug: bool = False) -> str:
    """engine, nn and train in one file, as a student hands in one .py."""
    engine = (folder / "engine.py").read_text()
    if mul_bug:
        engine = engine.replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad")
    nn = (folder / "nn.py").read_text().replace("from micrograd.engine import Value\n", "")
    train = (folder / "train.py").read_text()
    train = "\n".join(l for l in train.splitlines() if not l.startswith("from micrograd"))
    return "\n\n".join([engine, nn, train]) + "\n"


def canvas_download(root: Path) -> Path:
    """1001 correct, 1002 late with a mul bug, 1003 a stub (a non-ASCII name), 1004 not in any gradebook."""
    root.mkdir(parents=True)
    (root / "obrienmary_1001_5001_micrograd.py").write_text(one_file())
    (root / "leebob_LATE_1002_5002_micrograd.py").write_text(one_file(mul_bug=True))
    (root / "müllerzoë_1003_5003_micrograd.py").write_text(one_file(EXERCISES))
    (root / "ghoststudent_1004_5004_micrograd.py").write_text(one_file())
    return root


def moodle_download(root: Path) -> Path:
    """Participants 41 (correct), 42 (mul bug), 43 (stub)."""
    for name, text in (("Ada Lovelace_41", one_file()), ("Alan Turing_42", one_file(mul_bug=True)),
                       ("Grace Hopper_43", one_file(EXERCISES))):
        folder = root / f"{name}_assignsubmission_file_"
        folder.mkdir(parents=True)
        (folder / "micrograd.py").write_text(text)
    return root


def graded_class(tmp: Path, download) -> Path:
    out = tmp / "out"
    code = main(["grade", str(download(tmp / "download")), "--out", str(out), "--workers", "2"])
    assert code in (0, 1) and (out / "gradebook.csv").is_file()
    return out
