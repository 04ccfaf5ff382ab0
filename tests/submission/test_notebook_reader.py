"""Is a student's notebook parsed outside the grading process, bounded, and does whatever it holds end as one
noted cell or one clear row, never a crash of the grading?"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.submission import SubmissionError, prepare
from autograder.submission.notebook import notebook_cells

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions" / "micrograd"
LONG_SUM = "total = " + " + ".join(["1"] * 3000)   # an honest cell: the parser nests it 3,000 deep


def write(path: Path, cells: list[str], *, metadata: dict | None = None, extra: str = "") -> Path:
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": metadata or {"kernelspec": {"name": "python3", "language": "python", "display_name": "P"}},
          "cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None}
                    for c in cells]}
    text = json.dumps(nb)
    if extra:  # raw JSON spliced into the document's top level
        text = text[:-1] + ", " + extra + "}"
    path.write_text(text, encoding="utf-8")
    return path


def one_file() -> str:
    nn = (SOLUTIONS / "nn.py").read_text().replace("from micrograd.engine import Value\n", "")
    return "\n\n".join([(SOLUTIONS / "engine.py").read_text(), nn, (SOLUTIONS / "train.py").read_text()])


@pytest.mark.parametrize("extra, says", [
    ('"deep": ' + "[" * 200_000 + "]" * 200_000, "nested too deeply"),
])
def test_is_a_notebook_nested_past_the_parser_one_line(tmp_path, extra, says):
    path = write(tmp_path / "deep.ipynb", ["x = 1"], extra=extra)
    with pytest.raises(SubmissionError, match=says):
        prepare(path, tmp_path / "work")


def test_is_a_kernelspec_language_shortened_in_the_reason(tmp_path):
    path = write(tmp_path / "k.ipynb", ["x = 1"], metadata={"kernelspec": {"language": "julia" + "x" * 10_000}})
    with pytest.raises(SubmissionError) as err:
        prepare(path, tmp_path / "work")
    assert "not a Python notebook" in str(err.value) and len(str(err.value)) < 200


def test_does_a_lone_surrogate_keep_its_meaning(tmp_path):
    """JSON's "\\ud800" is a string no UTF-8 file can hold: written as its escape, it means the same."""
    path = write(tmp_path / "s.ipynb", ['s = "\ud800"', "n = len(s)"])
    prepared = prepare(path, tmp_path / "work")
    source = (prepared.root / "micrograd" / "engine.py").read_text(encoding="utf-8")
    scope: dict = {}
    exec(compile(source, "engine.py", "exec"), scope)  # the kit's own conversion of a test's cells
    assert scope["s"] == "\ud800" and scope["n"] == 1


def test_is_a_cell_nested_past_the_parser_left_for_the_child(tmp_path):
    """The parser's limit costs that cell in the child at most, never the conversion of the notebook."""
    source, cells = notebook_cells(write(tmp_path / "long.ipynb", ["import otter\ngrader = otter.Notebook()",
                                                                   LONG_SUM, "grader.check('q1')"]))
    assert LONG_SUM in source and "grader.check" not in source and len(cells) == 3


def test_does_grade_say_one_line_for_a_notebook_it_cannot_read(tmp_path, capsys):
    path = write(tmp_path / "deep.ipynb", ["x = 1"], extra='"deep": ' + "[" * 100_000 + "]" * 100_000)
    assert main(["grade", str(path)]) in (1, 2)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err and "nested too deeply" in captured.out + captured.err


PEAK = '''
import json, resource, sys
from pathlib import Path
from autograder.config import from_mapping
from autograder.grading import grade_path

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024   # MiB (Linux: KiB)

rubric = from_mapping({"case_timeout": 2.0, "import_timeout": 4.0}, source="test")
honest, *hostile = sys.argv[1:]
grade_path(Path(honest), rubric=rubric, include_hidden=False, tasks=["add"])
before = peak()
rows = [(grade_path(Path(p), rubric=rubric, include_hidden=False, tasks=["add"])) for p in hostile]
print(json.dumps({"before": before, "after": peak(), "scores": [r.score for r in rows],
                  "errors": [r.error for r in rows]}))
'''


def test_does_the_grading_process_stay_small_while_it_grades_hostile_notebooks(tmp_path):
    """Measured: the grading process's peak memory (its own, not the reader's or the child's) grows by less
    than 40 MiB over grading an honest notebook while it grades a 6 MB cell, millions of JSON objects and a
    cell nested past the parser."""
    bound = 40
    honest = write(tmp_path / "honest.ipynb", [one_file()])
    huge_cell = write(tmp_path / "huge.ipynb", [one_file(), "import otter\nx = [" + "1," * 3_000_000 + "]"])
    objects = write(tmp_path / "objects.ipynb", [one_file()], extra='"x": [' + ",".join(["{}"] * 2_000_000) + "]")
    nested = write(tmp_path / "nested.ipynb", [one_file(), LONG_SUM])
    done = subprocess.run([sys.executable, "-c", PEAK, str(honest), str(huge_cell), str(objects), str(nested)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["after"] - got["before"] < bound, got
    # the 6 MB cell is left out alone: the notebook's code around it graded as the others are
    assert got["scores"] == [got["scores"][0]] * 3 and got["scores"][0] > 0 and got["errors"] == [None] * 3


@pytest.mark.parametrize("megabytes", [40, 100])
def test_is_a_huge_output_ignored_and_the_code_graded(tmp_path, megabytes):
    """Outputs are never run nor read as code: a correct notebook whose one cell printed 40 MB, or 100 MB (past
    the 64 MiB a notebook once could be: refused whole), is graded as the same notebook without it."""
    from autograder.config import Rubric
    from autograder.grading import grade_path

    path = write(tmp_path / "printed.ipynb", [one_file(), "print('the training log')"])
    nb = json.loads(path.read_text())
    nb["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x" * megabytes * 10**6 + "\n"}]
    path.write_text(json.dumps(nb), encoding="utf-8")
    report = grade_path(path, rubric=Rubric(hidden_seed=5), include_hidden=False, tasks=["add", "mlp"])
    assert report.error is None and report.score == report.max_score, (report.error, report.notes)


def test_does_the_reader_never_import_a_students_autograder_folder(tmp_path, monkeypatch):
    """The grader started in a class folder where a student handed in a folder named `autograder`: the notebook
    reader (a process of the kit's, outside the sandbox) runs the kit's code, never that folder's."""
    from autograder.submission.notebook_reader import read_notebook

    pwned = tmp_path / "pwned"
    evil = tmp_path / "class" / "autograder" / "submission"
    evil.mkdir(parents=True)
    for folder in (evil.parent, evil):
        (folder / "__init__.py").write_text(f"open({str(pwned)!r}, 'w').close()\n")
    (evil / "notebook_reader.py").write_text(f"open({str(pwned)!r}, 'w').close()\n")
    notebook = write(tmp_path / "class" / "hw.ipynb", ["x = 1"])
    monkeypatch.chdir(tmp_path / "class")
    assert read_notebook(Path("hw.ipynb"), tmp_path / "hw.py", tmp_path / "hw.cells") == []
    assert not pwned.exists() and "x = 1" in (tmp_path / "hw.py").read_text() and notebook.is_file()
