"""Are student ids stable and unambiguous: the same student gets the same id whatever else is in the class, no
id holds another student's work, and every id several names make is listed with its originals?"""
from __future__ import annotations

import lms_fixtures as lms

from autograder.batch.discover import discover
from autograder.batch.ids import MARK, assign, file_names, is_id


def ids_of(names: list[str]) -> dict[str, str]:
    return dict(zip(names, assign(names, [f"folder {n}" for n in names])))


def test_does_the_name_that_is_the_id_keep_it():
    got = ids_of(["rt3 coll", "rt3_coll"])
    assert got["rt3_coll"] == "rt3_coll" and got["rt3 coll"].startswith("rt3_coll" + MARK)


def test_does_a_suffix_never_take_a_name_someone_has():
    got = ids_of(["x", "x-2", "X"])
    assert got["x-2"] == "x-2" and MARK in got["x"] and MARK in got["X"]   # x and X: neither is the one id
    assert len({i.casefold() for i in got.values()}) == 3


def test_is_a_students_id_the_same_whatever_else_is_in_the_class():
    alone = ids_of(["rt3 coll", "rt3_coll"])
    crowded = ids_of(["rt3_coll", "rt3  coll", "rt3 coll", "rt3:coll", "x", "rt3_coll-2"])
    assert crowded["rt3 coll"] == alone["rt3 coll"] and crowded["rt3_coll"] == alone["rt3_coll"]
    # names that differ in letter case alone are one name on macOS and Windows: neither is the id for sure
    twins = ids_of(["rt3_coll", "RT3_COLL"])
    assert MARK in twins["rt3_coll"] and MARK in twins["RT3_COLL"]


def test_does_one_name_twice_give_the_id_to_neither():
    """Two submissions claiming one SID: neither is the student's for sure, so neither takes the bare id."""
    ids = assign(["100", "100"], ["submission_1", "submission_2"])
    assert MARK in ids[0] and MARK in ids[1] and ids[0] != ids[1]
    assert assign(["100", "100"], ["submission_2", "submission_1"]) == ids[::-1]


def test_are_marked_ids_file_names_as_they_are():
    ids = assign(["a b", "a_b"], ["1", "2"])
    assert all(is_id(i) for i in ids) and file_names(ids) == ids


def test_does_a_gradescope_export_with_one_sid_twice_say_which_submission_is_which(tmp_path):
    export = lms.gradescope(tmp_path / "export")
    metadata = (export / "submission_metadata.yml").read_text()
    (export / "submission_metadata.yml").write_text(metadata.replace(":sid: '100'", ":sid: '200'"))
    d = discover([export], tmp_path / "work")
    twice = [e for e in d.entries if e.student.startswith("200")]
    assert len(twice) == 2 and all(MARK in e.student for e in twice), [e.student for e in d.entries]
    note = next(p for p in d.problems if "make the id 200" in p)
    assert all(e.student in note for e in twice) and "submission_111" in note and "submission_222" in note
    again = discover([export], tmp_path / "work2")
    assert [e.student for e in again.entries] == [e.student for e in d.entries]


def test_does_a_folder_named_like_a_sanitised_name_keep_its_own_work(tmp_path):
    lms.write(tmp_path / "class" / "rt3 coll" / "engine.py", "WHO = 'space'\n")
    lms.write(tmp_path / "class" / "rt3_coll" / "engine.py", "WHO = 'underscore'\n")
    got = {e.student: e for e in discover([tmp_path / "class"], tmp_path / "work").entries}
    assert (got["rt3_coll"].path / "engine.py").read_text() == "WHO = 'underscore'\n"
