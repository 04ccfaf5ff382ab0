"""Batch intake: each LMS layout recognised, ids safe and unique, junk skipped with a reason."""
from __future__ import annotations


import lms_fixtures as lms
import pytest

from autograder.batch.discover import Entry, discover
from autograder.batch.ids import MAX_LEN, sanitise, uniquify


def by_student(d) -> dict[str, Entry]:
    return {e.student: e for e in d.entries}


def junk_lines(problems: list[str]) -> list[str]:
    return [p for p in problems if ".DS_Store" in p or "__MACOSX" in p]


def test_canvas_download_groups_files_flags_late_and_skips_junk(tmp_path):
    d = discover([lms.canvas(tmp_path / "canvas")], tmp_path / "work")
    got = by_student(d)
    assert list(got) == ["alicesmith_1001", "bobjones_1002", "carolwu_1003", "davidkim_1004"]
    assert {e.source for e in d.entries} == {"canvas"}
    alice = got["alicesmith_1001"]
    assert alice.path.is_dir() and alice.path.is_relative_to(tmp_path / "work")
    assert sorted(p.name for p in alice.path.iterdir()) == ["engine.py", "nn.py", "train.py"]
    assert (alice.path / "nn.py").read_text() == "NN = 1\n"
    assert alice.original.count("alicesmith_1001") == 3
    assert [e.student for e in d.entries if e.late] == ["bobjones_1002"]
    assert got["bobjones_1002"].path.name == "bobjones_LATE_1002_5004_micrograd.py"
    assert got["carolwu_1003"].path.suffix == ".zip"      # a zip stays itself
    assert got["davidkim_1004"].path.suffix == ".ipynb"   # so does a notebook
    assert len(junk_lines(d.problems)) == 2 and len(d.problems) == 2


def test_canvas_zip_is_opened_and_read_the_same_way(tmp_path):
    folder = lms.canvas(tmp_path / "canvas")
    download = lms.zip_folder(folder, tmp_path / "submissions.zip")
    from_folder = discover([folder], tmp_path / "w1")
    from_zip = discover([download], tmp_path / "w2")
    assert [(e.student, e.late, e.path.suffix) for e in from_zip.entries] == \
           [(e.student, e.late, e.path.suffix) for e in from_folder.entries]
    assert all(e.path.is_relative_to(tmp_path / "w2") for e in from_zip.entries)


def test_canvas_reupload_keeps_the_newer_file(tmp_path):
    folder = lms.canvas(tmp_path / "canvas")
    lms.write(folder / "alicesmith_1001_5009_engine-1.py", "NEWER = 1\n")
    d = discover([folder], tmp_path / "work")
    alice = by_student(d)["alicesmith_1001"]
    assert (alice.path / "engine.py").read_text() == "NEWER = 1\n"
    assert any("kept the newer" in p for p in d.problems)


@pytest.mark.parametrize("given", ["course", "course/submitted"])
def test_nbgrader_tree_from_course_root_or_submitted(tmp_path, given):
    lms.nbgrader(tmp_path / "course")
    d = discover([tmp_path / given], tmp_path / "work")
    assert [(e.student, e.source, e.path.name) for e in d.entries] == [
        ("alice", "nbgrader", "backprop.ipynb"), ("bob", "nbgrader", "backprop.ipynb")]
    assert d.problems == [] and d.workdir is None  # nothing assembled, nothing unzipped


def test_nbgrader_several_assignments_are_student__assignment(tmp_path):
    lms.nbgrader(tmp_path / "course", assignments=("hw1", "hw2"))
    d = discover([tmp_path / "course"], tmp_path / "work")
    assert [e.student for e in d.entries] == ["alice__hw1", "alice__hw2", "bob__hw1", "bob__hw2"]
    assert d.entries[1].original == "alice/hw2"


def test_gradescope_export_maps_submissions_to_submitters(tmp_path):
    d = discover([lms.gradescope(tmp_path / "export")], tmp_path / "work")
    got = {e.student: (e.path.name, e.original) for e in d.entries}
    assert got == {
        "100": ("submission_111", "submission_111"),
        "200": ("backprop.ipynb", "submission_222"),     # a pair: one entry per partner
        "201": ("backprop.ipynb", "submission_222"),
        "ohara@example.edu": ("submission_333", "submission_333"),  # no sid: the email
        "submission_444": ("submission_444", "submission_444"),     # not in the metadata
    }
    assert {e.source for e in d.entries} == {"gradescope"}
    assert any("submission_555" in p and "no folder" in p for p in d.problems)
    assert len(junk_lines(d.problems)) == 2 and len(d.problems) == 3


def test_gradescope_export_zip_with_a_wrapper_folder(tmp_path):
    folder = lms.gradescope(tmp_path / "export")
    download = lms.zip_folder(folder, tmp_path / "export.zip", wrapper="assignment_42_export/")
    d = discover([download], tmp_path / "work")
    assert [e.student for e in d.entries] == ["100", "200", "201", "ohara@example.edu", "submission_444"]


def test_plain_folder_names_sanitised_collisions_resolved_junk_skipped(tmp_path):
    d = discover([lms.plain_class(tmp_path / "class")], tmp_path / "work")
    got = {e.student: e for e in d.entries}
    marked = next(s for s in got if s.startswith("alice_smith~"))
    assert sorted(got) == sorted(["Zoë_Müller", "José_García", "李_雷", "Ana_Lúcia",
                                  "alice_smith", marked, "Jane_Doe_12345"])
    assert got["Zoë_Müller"].source == "folder" and got["José_García"].source == "file"
    assert got["Ana_Lúcia"].path.name == "backprop.ipynb"   # found inside the wrapper folder
    # a collision: the submission named exactly so keeps the id, the other is marked, and a note says so
    assert got["alice_smith"].original == "alice_smith.py" and got[marked].original == "alice smith"
    assert any(p.startswith("class/notes.txt: not a submission") for p in d.problems)
    assert f"2 submissions make the id alice_smith: 'alice smith' is {marked}; 'alice_smith.py' is alice_smith" \
        in d.problems
    assert len(junk_lines(d.problems)) == 2 and len(d.problems) == 4
    assert d.workdir is None


def test_results_are_deterministic_whatever_the_argument_order(tmp_path):
    a = lms.write(tmp_path / "one" / "alice.py")
    b = lms.write(tmp_path / "two" / "Alice.py")
    c = lms.canvas(tmp_path / "canvas")
    first = discover([a, b, c], tmp_path / "work")
    second = discover([c, b, a], tmp_path / "work")
    assert first == second
    # case-insensitive: neither name is the one id exactly, so both are marked
    assert sorted(e.student.split("~")[0] for e in first.entries if "~" in e.student) == ["Alice", "alice"]
    assert [e.student for e in first.entries] == sorted((e.student for e in first.entries), key=str.casefold)


def test_single_submissions_and_missing_paths(tmp_path):
    folder = lms.write(tmp_path / "my work" / "micrograd" / "engine.py").parents[1]
    flat = lms.write(tmp_path / "flat" / "engine.py").parent
    py = lms.write(tmp_path / "bob.py")
    nb = lms.notebook(tmp_path / "carol.ipynb")
    zp = lms.student_zip(tmp_path / "dan.zip")
    d = discover([folder, flat, py, nb, zp, tmp_path / "missing", folder], tmp_path / "work")
    assert [(e.student, e.source) for e in d.entries] == [
        ("bob", "file"), ("carol", "file"), ("dan", "file"), ("flat", "folder"), ("my_work", "folder")]
    assert by_student(d)["dan"].path == zp  # one student's zip is not opened here
    assert any("missing: no such file or folder" in p for p in d.problems)
    assert any("given more than once" in p for p in d.problems)


@pytest.mark.parametrize("raw, safe", [
    ("Zoë Müller", "Zoë_Müller"), ("../../etc/passwd", "_.._etc_passwd"), ("a\\b:c", "a_b_c"),
    (".hidden", "hidden"), ("CON", "_CON"), ("", "student"), ("...", "student"),
    ("bob@uni.edu", "bob@uni.edu"), ("x" * 300, "x" * MAX_LEN),
])
def test_sanitise(raw, safe):
    assert sanitise(raw) == safe


def test_uniquify_stays_within_the_length_limit():
    long = "y" * MAX_LEN
    ids = uniquify([long, long, "a", "A", "a-2"])
    assert ids[1] == "y" * (MAX_LEN - 2) + "-2" and ids[2:] == ["a", "A-2", "a-2-2"]
    assert len(set(i.casefold() for i in ids)) == 5


def test_is_a_notebook_beside_a_package_of_py_files_graded_with_it(tmp_path):
    """A student's folder holding lecture.ipynb and the nanograd/ it imports is that folder (the engine is in
    the package, issue 29.1); a notebook beside a folder of pictures is still the notebook itself."""
    lms.notebook(tmp_path / "class" / "ada" / "lecture.ipynb")
    lms.write(tmp_path / "class" / "ada" / "nanograd" / "engine.py")
    lms.notebook(tmp_path / "class" / "bea" / "hw.ipynb")
    (tmp_path / "class" / "bea" / "images").mkdir()
    (tmp_path / "class" / "bea" / "images" / "graph.png").write_bytes(b"\x89PNG")
    got = by_student(discover([tmp_path / "class"], tmp_path / "work"))
    assert got["ada"].path == tmp_path / "class" / "ada"
    assert got["bea"].path == tmp_path / "class" / "bea" / "hw.ipynb"
