"""A class's output folder remembers its last class, so a run into it can update rows in place and say
what a regrade changed.

The rule (README, "Regrades"):
  - a run whose submissions are all students of the folder's last class, and fewer of them, updates those
    students' rows in place: the others keep their rows, reports and pages as they were;
  - with a roster (given, or remembered by the folder), the class grows: students of the last class keep
    their rows when a run does not give them (a late student graded alone is added; a submission of no one on
    the roster stays named, until the roster has its id: then it has no row until its folder is graded);
  - otherwise a run's submissions are the class (a student no longer given is dropped, and said).

The last class is kept in the store's `meta` table: each student's grade key (the submission's digest, the
kit version, the hidden seed, the rubric's digest) and the rubric's own settings, so the changes of a
regrade (regrade_changes.py) can say why a score moved.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Callable, Iterable, Sequence

from autograder.batch.keys import GradeKey
from autograder.batch.store import BatchRow, Store
from autograder.config import Rubric

META_KEY = "class"
ROWS = "last_class"  # the meta entry's "rows": the class is in the store's last_class table


def rubric_settings(rubric: Rubric) -> dict:
    """What of the rubric a regrade's reasons can name (not the hidden seed: that is in each key)."""
    data = {f.name: getattr(rubric, f.name) for f in fields(rubric)
            if f.name not in ("source", "hidden_seed", "variants", "variant", "points")}
    data["points"] = dict(sorted(dict(rubric.points).items()))
    data["forbidden_imports"] = list(data["forbidden_imports"])
    data["allowed_imports"] = list(data["allowed_imports"])
    if rubric.variants is not None:
        from autograder.variants.assign import variants_digest
        data["variants"] = variants_digest(rubric)
    return data


@dataclass(frozen=True)
class LastClass:
    students: tuple[str, ...]
    keys: dict[str, GradeKey]
    rubric: dict
    sources: dict[str, str]          # how each was found (canvas, folder...): its roster id depends on it
    unrostered: dict[str, dict]      # the rows not graded (not on the roster): {source, original, late}

    @staticmethod
    def read(store: Store) -> LastClass | None:
        text = store.meta(META_KEY)
        if text is None:
            return None
        data = json.loads(text)
        if data.get("rows") != ROWS:  # the whole class in the one text (a folder of an earlier kit)
            keys = {s: GradeKey(*k) for s, k in data["keys"].items()}
            return LastClass(tuple(data["students"]), keys, data["rubric"], data.get("sources", {}),
                             data.get("unrostered", {}))
        students, keys, sources, unrostered = [], {}, {}, {}
        for student, source, *key, other in store.last_class():
            students.append(student)
            sources[student] = source
            if key[0] is not None:
                keys[student] = GradeKey(*key)
            if other is not None:
                unrostered[student] = json.loads(other)
        return LastClass(tuple(students), keys, data["rubric"], sources, unrostered)

    @staticmethod
    def write(store: Store, rows: Iterable[BatchRow], key: Callable[[str], GradeKey | None], rubric: Rubric,
              last: LastClass | None = None) -> None:
        """rows: the class's; those without a key were not graded (not on the roster). Written a row at a time
        (Store.set_last_class): the class is never one text in memory. last: the last class as this run read it:
        when it is what would be written (a rerun with nothing new), nothing is (last.same_as)."""
        if last is not None and last.same_as(store, rows, key, rubric):
            return
        def lines():
            for r in rows:
                k = key(r.student)
                yield (r.student, r.source, *(_fields(k) if k is not None else (None,) * 4),
                       None if k is not None else json.dumps({"late": r.late, "original": r.original, "source": r.source}))
        store.set_last_class(lines(), (META_KEY, json.dumps({"rows": ROWS, "rubric": rubric_settings(rubric)},
                                                            sort_keys=True)))


    def same_as(self, store: Store, rows, key: Callable[[str], GradeKey | None], rubric: Rubric) -> bool:
        """Would write() write this last class again? Told from the class's order and keys, its rows made in memory
        and one query of the store (the keyed rows' sources), without walking the rows: rows is a StoredRows."""
        students, made = getattr(rows, "students", None), getattr(rows, "made", None)
        if students is None or made is None or tuple(students) != self.students:
            return False
        if store.meta(META_KEY) != json.dumps({"rows": ROWS, "rubric": rubric_settings(rubric)}, sort_keys=True):
            return False  # another rubric, or the last class kept as one text (an earlier kit's)
        for student in students:
            k = key(student)
            if k is None:
                r = made.get(student)
                if r is None or self.unrostered.get(student) != {"late": r.late, "original": r.original, "source": r.source} \
                        or self.sources.get(student) != r.source or student in self.keys:
                    return False
            elif self.keys.get(student) != k or student in self.unrostered:
                return False
        return store.last_class_sources_current()


def kept_students(last: LastClass | None, run: Sequence[str], on_roster=None) -> list[str]:
    """The students of the last class whose rows this run keeps as they are (see the module's rule).
    on_roster(student) -> bool, with a roster in force."""
    if last is None:
        return []
    given = set(run)
    others = [s for s in last.students if s not in given]
    if on_roster is not None:
        return [s for s in others if on_roster(s)]
    if given and given < set(last.students):
        return others
    return []


def class_order(last: LastClass | None, run: Sequence[str], kept: Sequence[str]) -> list[str]:
    """The class's students in order: the last class's order, with the new ones after."""
    if not kept or last is None:
        return list(run)
    everyone = set(run) | set(kept)
    ordered = [s for s in last.students if s in everyone]
    return ordered + [s for s in run if s not in set(ordered)]


def _fields(key: GradeKey) -> tuple[str, str, str, str]:
    return key.content, key.kit_version, key.hidden_seed, key.rubric

