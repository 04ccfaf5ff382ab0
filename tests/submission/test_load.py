"""Does prepare() turn every shape of hand-in into one micrograd package, and refuse what is unsafe?"""
from __future__ import annotations

import os
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from autograder.cases.model import Case
from autograder.runner import Limits, run_cases
from autograder.submission import SubmissionError, prepare

KIT = Path(__file__).resolve().parents[2]
SOLUTION = KIT / "solutions" / "micrograd"
FAKE = KIT / "tests" / "runner" / "fake_programs"


def single_file() -> str:
    """The three solution modules as one file, as a student might hand it in."""
    parts = [(SOLUTION / f"{m}.py").read_text() for m in ("engine", "nn", "train")]
    return "\n\n".join(parts).replace("from micrograd.engine import Value", "")


def listing(prepared) -> list[str]:
    package = prepared.root / "micrograd"
    return sorted(p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file())


def make_zip(path: Path, entries: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return path


def test_a_folder_holding_micrograd(tmp_path):
    shutil.copytree(SOLUTION, tmp_path / "hw" / "micrograd")
    (tmp_path / "hw" / "micrograd" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "hw" / "micrograd" / "__pycache__" / "engine.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "hw" / "notes.txt").write_text("hi")
    prepared = prepare(tmp_path / "hw", tmp_path / "work")
    assert prepared.layout == "package"
    assert listing(prepared) == ["__init__.py", "engine.py", "nn.py", "train.py"]
    assert prepared.files["engine"] == "micrograd/engine.py"
    assert prepared.problems == []
    assert prepared.root == tmp_path / "work" / "sub"


def test_a_folder_of_loose_files_some_missing(tmp_path):
    folder = tmp_path / "loose"
    folder.mkdir()
    shutil.copy(SOLUTION / "engine.py", folder / "engine.py")
    (folder / "nn.py").write_text((SOLUTION / "nn.py").read_text().replace("micrograd.engine", "engine"))
    (folder / ".hidden.py").write_text("x = 1")
    prepared = prepare(folder, tmp_path / "work")
    assert prepared.layout == "loose"
    assert listing(prepared) == ["engine.py", "nn.py"]
    assert prepared.files == {"engine": "engine.py", "nn": "nn.py"}
    assert prepared.problems == ["no train.py found"]


def test_renamed_downloads_are_used_under_their_module_name(tmp_path):
    folder = tmp_path / "dl"
    folder.mkdir()
    shutil.copy(SOLUTION / "engine.py", folder / "engine (1).py")
    shutil.copy(SOLUTION / "nn.py", folder / "NN.py")
    shutil.copy(SOLUTION / "train.py", folder / "train.py")
    prepared = prepare(folder, tmp_path / "work")
    assert listing(prepared) == ["engine.py", "nn.py", "train.py"]
    assert prepared.files["engine"] == "engine (1).py"
    assert "used engine (1).py as engine.py" in prepared.problems


def test_a_single_py_file_holding_everything_runs(tmp_path):
    source = tmp_path / "hw3.py"
    source.write_text(single_file())
    prepared = prepare(source, tmp_path / "work")
    assert prepared.layout == "single"
    assert listing(prepared) == ["engine.py", "nn.py", "train.py"]
    assert prepared.files == {"engine": "hw3.py", "nn": "hw3.py", "train": "hw3.py"}
    cases = [Case("neuron/same", "neuron", "basic.same_value", {}),
             Case("train/probe", "train", "basic.train_probe", {})]
    result = run_cases(prepared.root, cases, limits=Limits(case_timeout=2.0), programs_dir=FAKE,
                       files=prepared.files)
    assert result.imports.errors == {}
    assert result.outcomes["neuron/same"].obs == {"same": 1.0}
    assert result.outcomes["train/probe"].obs == {"has_mse": 1.0}  # train's globals: its own module


def test_a_single_file_that_does_not_import_is_reported_once_per_module_by_its_name(tmp_path):
    source = tmp_path / "hw3.py"
    source.write_text("import math\ndef oops(:\n")
    prepared = prepare(source, tmp_path / "work")
    result = run_cases(prepared.root, [Case("add/x", "add", "basic.add", {"a": 1.0, "b": 2.0})],
                       limits=Limits(case_timeout=2.0), programs_dir=FAKE, files=prepared.files)
    assert set(result.imports.errors.values()) == {"hw3.py:2: SyntaxError: invalid syntax"}
    assert result.outcomes["add/x"].message.startswith("hw3.py did not import, so Value is missing")


def test_a_folder_with_a_single_py_file(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "my_micrograd.py").write_text(single_file())
    prepared = prepare(tmp_path / "in", tmp_path / "work")
    assert prepared.layout == "single"
    assert prepared.files["nn"] == "my_micrograd.py"


def test_a_zip_with_a_single_top_folder_is_unwrapped(tmp_path):
    entries = {f"alice_hw3/micrograd/{m}.py": (SOLUTION / f"{m}.py").read_text() for m in ("engine", "nn", "train")}
    entries["__MACOSX/alice_hw3/micrograd/._engine.py"] = b"\0\5\26\7"
    entries["alice_hw3/micrograd/data.bin"] = b"\0" * 10
    prepared = prepare(make_zip(tmp_path / "alice.zip", entries), tmp_path / "work")
    assert prepared.layout == "package"
    assert listing(prepared) == ["engine.py", "nn.py", "train.py"]
    assert prepared.files["nn"] == "micrograd/nn.py"


def test_a_zip_of_loose_files(tmp_path):
    entries = {f"{m}.py": (SOLUTION / f"{m}.py").read_text() for m in ("engine", "nn")}
    prepared = prepare(make_zip(tmp_path / "hw.zip", entries), tmp_path / "work")
    assert prepared.layout == "loose"
    assert listing(prepared) == ["engine.py", "nn.py"]


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil.py", "C:/evil.py"])
def test_a_zip_slip_entry_is_refused(tmp_path, name):
    path = make_zip(tmp_path / "slip.zip", {"engine.py": "x = 1", name: "print('pwned')"})
    with pytest.raises(SubmissionError, match="outside its folder"):
        prepare(path, tmp_path / "work")
    assert not (tmp_path / "evil.py").exists()


def test_a_symlink_in_a_zip_is_refused(tmp_path):
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as zf:
        info = zipfile.ZipInfo("engine.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    with pytest.raises(SubmissionError, match="symbolic link"):
        prepare(path, tmp_path / "work")


def test_a_zip_bomb_is_refused(tmp_path):
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("engine.py", "w", force_zip64=True) as entry:
            block = b"#" * (1 << 20)
            for _ in range(60):
                entry.write(block)
    assert path.stat().st_size < 1 << 20
    with pytest.raises(SubmissionError, match="more than the 50 MB allowed"):
        prepare(path, tmp_path / "work")


def test_too_many_zip_entries_are_refused(tmp_path):
    path = make_zip(tmp_path / "many.zip", {f"f{i}.py": "" for i in range(1001)})
    with pytest.raises(SubmissionError, match="1001 entries"):
        prepare(path, tmp_path / "work")


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "nowhere", "no such file or folder"),
    (lambda d: (d / "fake.zip").write_text("not a zip") and d / "fake.zip", "is not a valid zip file"),
    (lambda d: (d / "report.pdf").write_text("%PDF") and d / "report.pdf", "is not a folder, a .py file"),
    (lambda d: (d / "empty").mkdir() or d / "empty", "no Python file"),
])
def test_unusable_input_is_one_clear_error(tmp_path, make, message):
    with pytest.raises(SubmissionError, match=message) as info:
        prepare(make(tmp_path), tmp_path / "work")
    assert "\n" not in str(info.value)


def test_links_in_a_folder_are_not_followed(tmp_path):
    folder = tmp_path / "hw"
    folder.mkdir()
    shutil.copy(SOLUTION / "engine.py", folder / "engine.py")
    os.symlink("/etc/passwd", folder / "nn.py")
    prepared = prepare(folder, tmp_path / "work")
    assert listing(prepared) == ["engine.py"]


def test_a_file_that_is_not_utf8_is_named_in_the_problems(tmp_path):
    """Is a file that is not UTF-8 text named, with what to do?"""
    folder = tmp_path / "hw"
    folder.mkdir()
    (folder / "engine.py").write_text("import math\n")
    (folder / "nn.py").write_bytes(b"x = 1\ny = '\xff\xfe'\n")
    prepared = prepare(folder, tmp_path / "work")
    assert "nn.py is not valid UTF-8: save it as UTF-8 text" in prepared.problems
