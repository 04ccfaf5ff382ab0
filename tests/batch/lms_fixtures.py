"""Build, at test time, what instructors download from an LMS: Canvas, nbgrader, Gradescope."""
from __future__ import annotations

import zipfile
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

ENGINE = "class Value:\n    def __init__(self, data, _children=(), _op='', label=''):\n        self.data = data\n"


def write(path: Path, text: str = ENGINE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def notebook(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=[new_code_cell("%pip install torch\n" + ENGINE)]), str(path))
    return path


def student_zip(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name in ("engine", "nn", "train"):
            zf.writestr(f"micrograd/{name}.py", ENGINE)
    return path


def zip_folder(folder: Path, dest: Path, wrapper: str = "") -> Path:
    with zipfile.ZipFile(dest, "w") as zf:
        for p in sorted(folder.rglob("*")):
            zf.write(p, f"{wrapper}{p.relative_to(folder).as_posix()}")
    return dest


def junk(folder: Path) -> None:
    write(folder / ".DS_Store", "\0\0\0\1Bud1")
    write(folder / "__MACOSX" / "._engine.py", "\0")


def canvas(root: Path) -> Path:
    """4 students: one with 3 separate files (one re-uploaded: nn-1.py), one LATE, one zip,
    one notebook; plus macOS junk."""
    write(root / "alicesmith_1001_5001_engine.py")
    write(root / "alicesmith_1001_5002_nn-1.py", "NN = 1\n")
    write(root / "alicesmith_1001_5003_train.py", "TRAIN = 1\n")
    write(root / "bobjones_LATE_1002_5004_micrograd.py")
    student_zip(root / "carolwu_1003_5005_submission.zip")
    notebook(root / "davidkim_1004_5006_backprop-1.ipynb")
    junk(root)
    return root


def nbgrader(course: Path, assignments=("hw1",)) -> Path:
    """course/submitted/<student>/<assignment>/{backprop.ipynb,timestamp.txt}."""
    for student in ("alice", "bob"):
        for a in assignments:
            notebook(course / "submitted" / student / a / "backprop.ipynb")
            write(course / "submitted" / student / a / "timestamp.txt", "2024-03-01 12:00:00\n")
    write(course / "nbgrader_config.py", "c = get_config()\n")
    (course / "source" / "hw1").mkdir(parents=True)
    return course


METADATA = """\
submission_111:
  :submitters:
  - :name: Solo Student
    :sid: '100'
    :email: solo@example.edu
  :created_at: 2024-03-01 12:00:00.000000000 -08:00
  :score: 10.0
  :results:
    :tests:
    - :name: 'test: submitters'
      :sid: not-a-submitter
submission_222:
  :submitters:
  - :name: Pair One
    :sid: "200"
    :email: one@example.edu
  - :name: Pair Two
    :sid: '201'
    :email: two@example.edu
  :history:
  - :submitters:
    - :name: Old Partner
      :sid: '999'
submission_333:
  :submitters:
  - :name: "O'Hara, Email Only"
    :email: ohara@example.edu
    :sid:
submission_555:
  :submitters:
  - :name: Ghost
    :sid: '555'
"""


def gradescope(export: Path) -> Path:
    """submission_metadata.yml; 111 single, 222 a pair, 333 email only, 444 not in the
    metadata, 555 in the metadata without a folder."""
    write(export / "submission_metadata.yml", METADATA)
    write(export / "submission_111" / "micrograd" / "engine.py")
    notebook(export / "submission_222" / "backprop.ipynb")
    write(export / "submission_333" / "engine.py")
    write(export / "submission_444" / "engine.py")
    junk(export)
    return export


def plain_class(folder: Path) -> Path:
    """Names with spaces and non-ASCII letters, a collision, a Moodle folder, junk."""
    write(folder / "Zoë Müller" / "micrograd" / "engine.py")
    write(folder / "José García.py")
    student_zip(folder / "李 雷.zip")
    notebook(folder / "Ana Lúcia" / "work" / "backprop.ipynb")
    write(folder / "alice smith" / "engine.py")
    write(folder / "alice_smith.py")
    write(folder / "Jane Doe_12345_assignsubmission_file_" / "engine.py")
    write(folder / "notes.txt", "todo\n")
    junk(folder)
    return folder
