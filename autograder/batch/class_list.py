"""The roster as the class list: who is on it, who handed nothing in, and whose submission is no one's.

    autograder grade CLASS --out OUT --roster roster.csv      # or the handouts folder (its variants.csv)

A submission's roster id is the id its variant is drawn from (variants/ids.py: Canvas's user id, Moodle's
participant id, a folder's name...). With a roster:
  - a submission whose id is not on it is *unrostered*: with [variants] it is not graded (its variant would
    be one nobody was handed), and its row says so; without [variants] it is graded as usual. Either way its
    gradebook status is `unrostered` and the summary names it.
  - a student on it with no submission is *missing*: a gradebook row of their own (status `missing`, no
    score) and a line of the summary.
  - forensics compares every submission with every rostered student's variant, the absent ones' too, so a
    copy of an absent student's handout is attributed.
The output folder remembers the roster (its ids), so a later run into it (a regrade, a late student) needs
no --roster again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from autograder.batch.entry import Entry
from autograder.batch.store import BatchRow, Store
from autograder.config import Rubric
from autograder.variants.assign import variant_of
from autograder.variants.ids import variant_id
from autograder.variants.model import Variant
from autograder.variants.roster import read_roster

if TYPE_CHECKING:
    from autograder.batch.regrade import LastClass

HANDOUTS_RECORD = "variants.csv"   # handout/roster.py's record of a roster's handouts: its `id` column
ROSTER_KEY = "roster"                # where the output folder's store remembers it


@dataclass(frozen=True)
class Roster:
    ids: tuple[str, ...]
    source: str                     # where it was read (a file), for the lines that name it

    def to_json(self) -> str:
        return json.dumps({"ids": list(self.ids), "source": self.source})

    @staticmethod
    def from_json(text: str) -> Roster:
        data = json.loads(text)
        return Roster(tuple(data["ids"]), str(data["source"]))

    def digest(self) -> str:
        """Its ids (not where it was read: the same roster is at another path on another machine)."""
        return hashlib.sha256(json.dumps(list(self.ids)).encode("utf-8", "surrogatepass")).hexdigest()


def load_roster(path: Path) -> Roster:
    """A roster CSV (an `id` column), or a handouts folder `autograder handout --roster` wrote (its variants.csv)."""
    path = Path(path)
    if path.is_dir():
        record = path / HANDOUTS_RECORD
        if not record.is_file():
            from autograder.errors import UserError
            raise UserError(f"--roster {path}: a folder, but not one `autograder handout --roster` wrote (no "
                            f"{HANDOUTS_RECORD}): give the roster's CSV")
        path = record
    return Roster(tuple(read_roster(path)), str(path))


@dataclass(frozen=True)
class ClassList:
    """What the roster says of a class's rows."""
    roster: Roster
    unrostered: dict[str, str] = field(default_factory=dict)       # kit student -> the roster id it would have
    missing: tuple[str, ...] = ()                                  # roster ids with no submission
    absent_variants: tuple[Variant, ...] = ()                      # theirs (with [variants]): for forensics
    graded_unrostered: bool = False                                # no [variants]: graded all the same

    def summary(self) -> dict:
        return {"roster": self.roster.source, "students": len(self.roster.ids),
                "submitted": len(self.roster.ids) - len(self.missing),
                "missing": list(self.missing),
                "missing_variants": {v.student: v.label for v in self.absent_variants},
                "unrostered": [{"submission": s, "id": i} for s, i in self.unrostered.items()],
                "unrostered_graded": self.graded_unrostered}


def roster_id(student: str, source: str) -> str:
    return variant_id(student, source)


def class_list(roster: Roster, students: Sequence[tuple[str, str]], rubric: Rubric) -> ClassList:
    """students: (kit id, source) of every row of the class."""
    on = set(roster.ids)
    ids = {s: roster_id(s, source) for s, source in students}
    unrostered = {s: i for s, i in ids.items() if i not in on}
    handed = set(ids.values())
    missing = tuple(i for i in roster.ids if i not in handed)
    absent = tuple(variant_of(rubric, i) for i in missing) if rubric.variants is not None else ()
    return ClassList(roster, unrostered, missing, absent, graded_unrostered=rubric.variants is None)


def not_on_roster(student: str, rid: str, roster: Roster) -> str:
    """The error of an unrostered submission that is not graded (a class with [variants])."""
    return (f"not graded: id {rid} is not on the roster ({Path(roster.source).name}), so which variant it was "
            "handed can't be known; add the id to the roster (or name the folder by a roster id) and run again")


def unrostered_row(entry: Entry, why: str, rubric: Rubric) -> BatchRow:
    """The row of a submission not graded because its id is not on the roster: its error says why."""
    from autograder.scoring import crashed_report
    late = entry.late
    return BatchRow(entry.student, crashed_report(entry.student, why, rubric, sandbox="none"),
                    None if late is None else bool(late), str(entry.source or ""), str(entry.original or ""), True)


def remembered_roster(store: Store, roster: Roster | None) -> Roster | None:
    """The roster given (remembered from now on), else the one the folder remembers."""
    if roster is not None:
        store.set_meta(ROSTER_KEY, roster.to_json())
        return roster
    text = store.meta(ROSTER_KEY)
    return Roster.from_json(text) if text else None


def still_in(last: LastClass, student: str, on: set[str]) -> bool:
    """Does a student of the last class keep their row in a run that does not give them (with a roster)? Yes,
    but for a submission not graded then (not on the roster) whose id the roster now has: it needs grading,
    and has no row until its folder is graded."""
    return not (student in last.unrostered and roster_id(student, last.sources.get(student, "")) in on)


def entries_of(last: LastClass | None, students: Sequence[str]) -> list[Entry]:
    """The entries of the last class's unrostered rows, as it remembered them (their rows are made again)."""
    if last is None:
        return []
    return [Entry(s, Path(), u["source"], bool(u["late"]), u["original"])
            for s in students if (u := last.unrostered.get(s)) is not None]


def unrostered_entries(entries: Sequence[Entry], roster: Roster | None, rubric: Rubric) -> dict[str, str]:
    """student -> why, for the entries not graded because they are not on the roster (with [variants] only:
    without, every student has the same assignment, and an unrostered one is graded and named)."""
    if roster is None or rubric.variants is None:
        return {}
    on = set(roster.ids)
    return {e.student: not_on_roster(e.student, rid, roster) for e in entries
            if (rid := roster_id(e.student, e.source)) not in on}
